// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The outgoing ACL packets of one connection, held back while the controller's LE buffers
/// are full. Each packet sent takes a buffer; Number of Completed Packets gives them back
/// (Core v5.4, Vol 4, Part E, §4.1.1). Never blocks, so the host's read thread may send too.
final class ACLOutbox: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: UInt16
    private let bufferSize: Int
    private let bufferCount: Int
    private var free: Int
    private var waiting: [ACLPacket] = []
    private var head = 0
    private let write: @Sendable ([UInt8]) -> Void

    /// `write` hands one packet to the transport; it is called in order, one at a time.
    init(handle: UInt16, bufferSize: Int, bufferCount: Int, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.handle = handle
        self.bufferSize = bufferSize
        self.bufferCount = max(bufferCount, 1)
        self.free = max(bufferCount, 1)
        self.write = write
    }

    /// Queues an L2CAP frame, cut to the buffer size, and sends what the buffers allow.
    func send(frame: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        waiting += ACLPacket.fragments(of: frame, handle: handle, bufferSize: bufferSize)
        flush()
    }

    /// The controller finished `count` packets of this connection.
    func completed(_ count: Int) {
        lock.lock()
        defer { lock.unlock() }
        free = min(free + count, bufferCount)
        flush()
    }

    /// Packets waiting for a free buffer.
    var backlog: Int {
        lock.lock()
        defer { lock.unlock() }
        return waiting.count - head
    }

    /// Writes under the lock, so packets of two frames never interleave.
    private func flush() {
        while free > 0, head < waiting.count {
            write(waiting[head].bytes)
            head += 1
            free -= 1
        }
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
