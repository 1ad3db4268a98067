// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The controller's LE data buffers, which all its connections share (Core v5.4, Vol 4,
/// Part E, §4.1.1: the count LE Read Buffer Size gives is the controller's, not a link's). A
/// packet written takes one; Number of Completed Packets, or the end of the packet's link, gives
/// it back, and the links that waited for one go on in the order they asked.
final class ACLCredits: @unchecked Sendable {
    private let lock = NSLock()
    let count: Int
    private var free: Int
    /// Outboxes that found no buffer free, in the order they asked.
    private var starved: [ACLOutbox] = []

    init(count: Int) {
        self.count = max(count, 1)
        free = self.count
    }

    /// Takes a buffer for `outbox`, or notes it as waiting for one.
    func take(for outbox: ACLOutbox) -> Bool {
        lock.withLock {
            if free > 0 {
                free -= 1
                return true
            }
            if !starved.contains(where: { $0 === outbox }) { starved.append(outbox) }
            return false
        }
    }

    /// `count` buffers are free again: the outboxes that waited try again (outside the lock,
    /// since each takes its own and then this one).
    func give(_ returned: Int) {
        guard returned > 0 else { return }
        let waking = lock.withLock { () -> [ACLOutbox] in
            free = min(free + returned, count)
            defer { starved = [] }
            return starved
        }
        for outbox in waking { outbox.resume() }
    }

    var available: Int { lock.withLock { free } }
}

/// The outgoing ACL packets of one connection, held back while the controller's LE buffers
/// are full. Each packet sent takes a buffer of the controller's (`ACLCredits`, shared by its
/// links); Number of Completed Packets gives them back. Never blocks, so the host's read thread
/// may send too.
final class ACLOutbox: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: UInt16
    private let bufferSize: Int
    private let credits: ACLCredits
    /// Packets written and not yet completed: given back should the link end first.
    private var inFlight = 0
    private var closed = false
    private var waiting: [ACLPacket] = []
    private var head = 0
    private let write: @Sendable ([UInt8]) -> Void

    /// `write` hands one packet to the transport; it is called in order, one at a time.
    /// `credits` are the controller's buffers, shared with its other links; without them the
    /// outbox has `bufferCount` of its own.
    init(handle: UInt16, bufferSize: Int, bufferCount: Int, credits: ACLCredits? = nil,
         write: @escaping @Sendable ([UInt8]) -> Void) {
        self.handle = handle
        self.bufferSize = bufferSize
        self.credits = credits ?? ACLCredits(count: bufferCount)
        self.write = write
    }

    /// Queues an L2CAP frame, cut to the buffer size, and sends what the buffers allow.
    func send(frame: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        waiting += ACLPacket.fragments(of: frame, handle: handle, bufferSize: bufferSize)
        flush()
    }

    /// The controller finished `count` packets of this connection: their buffers are free again.
    func completed(_ count: Int) {
        let returned = lock.withLock { () -> Int in
            let done = min(count, inFlight)
            inFlight -= done
            return done
        }
        credits.give(returned)
        // This link's own backlog goes on too, if it did not wait in line.
        lock.withLock { flush() }
    }

    /// The link ended: what it still held of the controller's buffers is free (§4.3), and what
    /// waited is dropped.
    func close() {
        let returned = lock.withLock { () -> Int in
            closed = true
            waiting = []
            head = 0
            defer { inFlight = 0 }
            return inFlight
        }
        credits.give(returned)
    }

    /// A buffer came free while this outbox waited for one.
    func resume() {
        lock.withLock { flush() }
    }

    /// Packets waiting for a free buffer.
    var backlog: Int {
        lock.lock()
        defer { lock.unlock() }
        return waiting.count - head
    }

    /// Writes under the lock, so packets of two frames never interleave.
    private func flush() {
        while head < waiting.count, credits.take(for: self) {
            write(waiting[head].bytes)
            head += 1
            inFlight += 1
        }
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
