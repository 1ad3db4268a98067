// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// MCUmgr's SMP over UDP (Zephyr's smp_transport.rst): one message a datagram, to a device's
/// port (1337 by default). A thread of its own reads the socket and hands each datagram on.
public final class UDPSMPTransport: SMPTransport, @unchecked Sendable {
    /// MCUmgr's port for SMP over UDP.
    public static let defaultPort: UInt16 = 1337

    public let received = Feed<[UInt8]>()
    /// What one datagram carries unfragmented on Ethernet (1,500 bytes less the IP and UDP
    /// headers): a device's network stack may take no more, as Zephyr's native_sim does not.
    public let maximumMessage: Int
    private let socket: Int32
    private let lock = NSLock()
    private var closed = false
    /// The reading thread's end, and the socket's close.
    private let ended: ReaderEnd

    /// Opens a socket to `host`:`port` (a name or an address, IPv4 or IPv6); says why it could not.
    public init(host: String, port: UInt16 = defaultPort) throws(SMPProblem) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw .disconnected(L10n.format("“{}” is no address this computer can reach.", DeviceText.terminal(host)))
        }
        defer { freeaddrinfo(found) }
        let fd = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { throw .disconnected(L10n.format("No UDP socket could be opened: {}", String(cString: strerror(errno)))) }
        // Connected, so the socket hears this device alone and a refused port is told (ECONNREFUSED).
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .disconnected(L10n.format("{} could not be reached: {}", DeviceText.terminal(host), why))
        }
        socket = fd
        ended = ReaderEnd(fd: fd)
        maximumMessage = first.pointee.ai_family == AF_INET6 ? 1_452 : 1_472
        let thread = Thread.named("favblue-smp-udp") { [weak self] in self?.read() }
        thread.start()
    }

    deinit { shut() }

    private func read() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.yield(Array(buffer[0..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == ECONNREFUSED, !lock.withLock({ closed }) {
                // Nothing listens yet (a device restarting): the request times out, the link stays.
                continue
            } else {
                break
            }
        }
        received.finish()
        ended.readerEnded()
    }

    public func send(_ message: [UInt8]) async throws(SMPProblem) {
        let gone = SMPProblem.disconnected(L10n.tr("The connection to the device ended."))
        guard !lock.withLock({ closed }),
              let (sent, error) = ended.sending({ fd in (message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }, errno) })
        else { throw gone }
        // A refused datagram (nothing listens yet) is lost like any other: the answer's timeout says so.
        guard sent == message.count || error == ECONNREFUSED else {
            throw .disconnected(L10n.format("The message could not be sent: {}", String(cString: strerror(error))))
        }
    }

    /// Ends the link, and returns once the socket is closed.
    public func close() async {
        guard shut() else { return }
        await ended.wait()
    }

    @discardableResult
    private func shut() -> Bool {
        let first = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        // Shutting the socket down wakes the reading thread, which then closes it and ends the feed.
        if first { _ = ended.sending { shutdown($0, Int32(SHUT_RDWR)) } }
        return first
    }
}
