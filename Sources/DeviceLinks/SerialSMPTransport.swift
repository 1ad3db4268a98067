// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio
import Domain
import Foundation
import Localization

/// MCUmgr's SMP over a serial line (a board on USB, MCUboot's serial recovery): each message
/// in the console framing (`SMPSerialFraming`), raw 8N1 at the given speed. A thread of its own
/// reads the line and hands each whole message on; the console's own output is passed over.
public final class SerialSMPTransport: SMPTransport, @unchecked Sendable {
    public static let defaultBaud = 115_200

    public let received = Feed<[UInt8]>()
    /// A message's limit on the line: MCUboot's serial recovery and Zephyr's defaults take 512 bytes
    /// (the device's own buffer may say less, and the client keeps to that too).
    public let maximumMessage = 512
    private let fd: Int32
    private let lock = NSLock()
    private var closed = false
    /// The reading thread's end, and the line's close.
    private let ended: ReaderEnd
    /// Cancelled by `close`: its descriptor, polled beside the line's, wakes the reader at once.
    private let stopping = g_cancellable_new()

    /// Opens the serial device at `path` at `baud`; says why it could not, and what to do.
    public init(path: String, baud: Int = defaultBaud) throws(SMPProblem) {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let why = errno == EACCES
                ? L10n.format("You may not open {}: add yourself to its group (often dialout), then log in again.", DeviceText.terminal(path))
                : L10n.format("{} could not be opened: {}", DeviceText.terminal(path), String(cString: strerror(errno)))
            throw .disconnected(why)
        }
        var options = termios()
        if tcgetattr(fd, &options) == 0 {
            cfmakeraw(&options)
            let speed = Self.speed(baud)
            cfsetispeed(&options, speed)
            cfsetospeed(&options, speed)
            options.c_cflag |= tcflag_t(CLOCAL | CREAD)
            _ = tcsetattr(fd, TCSANOW, &options)
        }
        self.fd = fd
        ended = ReaderEnd(fd: fd)
        let thread = Thread.named("favblue-smp-ser") { [weak self] in self?.read() }
        thread.start()
    }

    deinit {
        shut()
        g_object_unref(stopping)
    }

    static func speed(_ baud: Int) -> speed_t {
        switch baud {
        case 9_600: return speed_t(B9600)
        case 19_200: return speed_t(B19200)
        case 38_400: return speed_t(B38400)
        case 57_600: return speed_t(B57600)
        case 230_400: return speed_t(B230400)
        case 460_800: return speed_t(B460800)
        case 921_600: return speed_t(B921600)
        case 1_000_000: return speed_t(B1000000)
        default: return speed_t(B115200)
        }
    }

    private func read() {
        var decoder = SMPSerialFraming.Decoder()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var wake = GPollFD()
        // Without it, the wait below is cut to 200 ms, so a close is still seen.
        let wakes = g_cancellable_make_pollfd(stopping, &wake) != 0
        defer { if wakes { g_cancellable_release_fd(stopping) } }
        while !lock.withLock({ closed }) {
            var wanted = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: wakes ? wake.fd : -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&wanted, 2, wakes ? -1 : 200)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { break }
            guard wanted[0].revents != 0 else { continue }
            if wanted[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, wanted[0].revents & Int16(POLLIN) == 0 { break }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            for message in decoder.add(Array(buffer[0..<count])).messages { received.yield(message) }
        }
        received.finish()
        ended.readerEnded()
    }

    public func send(_ message: [UInt8]) async throws(SMPProblem) {
        let gone = SMPProblem.disconnected(L10n.tr("The connection to the device ended."))
        guard !lock.withLock({ closed }) else { throw gone }
        let sent = try ended.sending { (fd) throws(SMPProblem) in
            for line in SMPSerialFraming.encode(message) {
                var at = 0
                while at < line.count {
                    let written = line[at...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                    if written < 0, errno == EINTR || errno == EAGAIN { continue }
                    guard written > 0 else {
                        throw .disconnected(L10n.format("The message could not be written to the line: {}", String(cString: strerror(errno))))
                    }
                    at += written
                }
            }
        }
        if sent == nil { throw gone }
    }

    /// Ends the link, and returns once the line is closed (the reader is woken), so that a link
    /// opened next has the line to itself.
    public func close() async {
        guard shut() else { return }
        g_cancellable_cancel(stopping)
        await ended.wait()
    }

    @discardableResult
    private func shut() -> Bool {
        lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
    }
}
