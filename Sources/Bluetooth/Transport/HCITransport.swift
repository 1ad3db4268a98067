// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// A link to a controller that carries H4-typed HCI packets.
public protocol HCITransport: AnyObject, Sendable {
    /// Sends one packet (without its indicator byte).
    func send(_ type: H4PacketType, _ bytes: [UInt8]) throws(ScanFailure)
    /// Waits up to `timeout` seconds for a packet; nil when none came. Throws when the link ended.
    func receive(timeout: Double) throws(ScanFailure) -> (H4PacketType, [UInt8])?
    /// Closes the link; pending and later calls fail. Safe while another thread sends or
    /// receives, and more than once.
    func close()
    /// Ends the `receive` waiting now, or the next one when none waits (it returns nil), so a
    /// reader told to stop need not wait out its timeout.
    func wake()
}

extension HCITransport {
    public func wake() {}
}

/// H4 framing over a file descriptor: a unix or TCP socket, a serial line, or a raw HCI socket.
public final class FileDescriptorTransport: HCITransport, @unchecked Sendable {
    private let fd: Int32
    private let label: String
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    private var closed = false
    /// Calls using `fd` now. A descriptor closed under one of them could be reused by the next
    /// socket opened, and read by the wrong owner: the last one out closes it instead.
    private var users = 0
    private var released = false
    /// A pipe `receive` polls beside `fd`: a byte written to it by `wake` ends the wait. A pipe,
    /// not GLib's GCancellable as the serial link has: this file builds into the fuzzer, without GLib.
    private let waker: (read: Int32, write: Int32)?

    /// Takes ownership of `fd`; `label` names the link in messages.
    public init(fd: Int32, label: String) {
        BrokenPipes.ignore()
        self.fd = fd
        self.label = label
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            waker = (ends[0], ends[1])
        } else {
            waker = nil  // Without it, a stop waits out the receive's timeout, as before.
        }
    }

    deinit { close() }

    public func send(_ type: H4PacketType, _ bytes: [UInt8]) throws(ScanFailure) {
        try enter()
        defer { leave() }
        let frame = [type.rawValue] + bytes
        var written = 0
        while written < frame.count {
            let n = frame[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                let reason = String(cString: strerror(errno))
                if isClosed { throw .disconnected(L10n.tr("no link")) }
                throw .disconnected(L10n.format("{}: {}", label, reason))
            }
            written += n
        }
    }

    public func receive(timeout: Double) throws(ScanFailure) -> (H4PacketType, [UInt8])? {
        try enter()
        defer { leave() }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let packet = try frame() { return packet }
            if isClosed { throw .disconnected(L10n.tr("no link")) }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var pfds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: waker?.read ?? -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&pfds, 2, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .disconnected(String(cString: strerror(errno)))
            }
            if pfds[1].revents != 0, let waker {
                var drained = [UInt8](repeating: 0, count: 64)
                while drained.withUnsafeMutableBytes({ Glibc.read(waker.read, $0.baseAddress, $0.count) }) > 0 {}
                if isClosed { throw .disconnected(L10n.tr("no link")) }
                if pfds[0].revents == 0 { return nil }
            }
            if pfds[0].revents == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            // Shut down by our own close: that is no link, not the controller going away.
            if n <= 0, isClosed { throw .disconnected(L10n.tr("no link")) }
            if n == 0 { throw .disconnected(L10n.format("{} closed the connection", label)) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .disconnected(L10n.format("{}: {}", label, String(cString: strerror(errno))))
            }
            buffer += chunk[0..<n]
        }
    }

    /// Cuts one complete packet off the buffer, if there is one (Core v5.4, Vol 4, Part E, §5.4).
    private func frame() throws(ScanFailure) -> (H4PacketType, [UInt8])? {
        guard let first = buffer.first else { return nil }
        guard let type = H4PacketType(rawValue: first) else {
            // Without a known indicator the stream cannot be resynchronized.
            throw .controller(L10n.format("unknown H4 packet type 0x{}", String(first, radix: 16)))
        }
        let header: Int
        switch type {
        case .event: header = 2
        case .command, .sco: header = 3
        case .acl, .iso: header = 4
        }
        guard buffer.count >= 1 + header else { return nil }
        let length: Int
        switch type {
        case .event: length = Int(buffer[2])
        case .command, .sco: length = Int(buffer[3])
        case .acl: length = Int(buffer[3]) | Int(buffer[4]) << 8
        case .iso: length = (Int(buffer[3]) | Int(buffer[4]) << 8) & 0x3FFF
        }
        guard buffer.count >= 1 + header + length else { return nil }
        let packet = Array(buffer[1..<(1 + header + length)])
        buffer.removeFirst(1 + header + length)
        return (type, packet)
    }

    public func wake() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, let waker else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(waker.write, &byte, 1)
    }

    /// Closes the link. A receive waiting on another thread is woken and fails, and so is a send
    /// held by a controller that stopped reading (a socket is shut down); the descriptors close
    /// as the last call using them returns.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        guard users > 0 else { return release() }
        // Not a socket (a serial line): nothing to shut down, and the waker still ends a receive.
        _ = shutdown(fd, Int32(SHUT_RDWR))
        if let waker {
            var byte: UInt8 = 1
            _ = Glibc.write(waker.write, &byte, 1)
        }
    }

    private var isClosed: Bool { lock.withLock { closed } }

    private func enter() throws(ScanFailure) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .disconnected(L10n.tr("no link")) }
        users += 1
    }

    private func leave() {
        lock.lock()
        defer { lock.unlock() }
        users -= 1
        if closed, users == 0 { release() }
    }

    /// Closes the descriptors, once; called under `lock`.
    private func release() {
        guard !released else { return }
        released = true
        Glibc.close(fd)
        if let waker {
            Glibc.close(waker.read)
            Glibc.close(waker.write)
        }
    }
}
