// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import DeviceLinks
import Domain
import Foundation
import TestSupport
import XCTest

/// The Device Manager over a serial line: a pseudo-terminal whose far end frames and unframes
/// with PyPI's smp (peers/serial_smp_device.py), the reference implementation, and mixes console
/// output in between frames.
final class SerialDeviceManagerTests: XCTestCase {
    private func board() throws -> (ChatPeer, String) {
        let peer = try ChatPeer([], script: "serial_smp_device.py")
        let line = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("PTY ") }), peer.output)
        return (peer, String(line.dropFirst(4)))
    }

    func testEchoAndParametersGoThroughTheConsoleFramingBothWays() async throws {
        let (peer, path) = try board()
        let client = SMPClient(transport: try SerialSMPTransport(path: path))
        // Long enough to take two lines each way.
        let text = "Grüße <b> " + String(repeating: "line ", count: 30)
        let (back, _) = try await client.echo(text)
        XCTAssertEqual(back, text)
        let parameters = try await client.parameters()
        XCTAssertEqual(parameters, SMPParameters(bufferSize: 512, bufferCount: 4))
        XCTAssertFalse(peer.output.contains("BAD"), "the reference decoder read every frame: \(peer.output)")
        await client.close()
        peer.stop()
    }

    /// Closing wakes the line's reader, which waits without a timeout: a quiet line ends at once,
    /// rather than at the reader's next look, so a link opened next has it without waiting.
    func testClosingAQuietLineEndsItAtOnce() async throws {
        // A line nothing is sent on: a named pipe, opened as a serial device is (no tty settings).
        let path = NSTemporaryDirectory() + "favblue-quiet-line-\(UUID().uuidString)"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        defer { unlink(path) }
        let transport = try SerialSMPTransport(path: path)
        // One message through the line: its reader is running, and goes back to wait on it.
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(writer, 0)
        defer { Glibc.close(writer) }
        let message: [UInt8] = [0x01, 0, 0, 0, 0, 0, 1, 0]
        for line in SMPSerialFraming.encode(message) { XCTAssertEqual(write(writer, line, line.count), line.count) }
        var arrived: [UInt8]?
        for await read in transport.received {
            arrived = read
            break
        }
        XCTAssertEqual(arrived, message)
        // Awaited apart, so a reader never woken fails the test rather than holding it.
        let closed = expectation(description: "the reader was woken, not left waiting on a quiet line")
        Task.detached {
            await transport.close()
            closed.fulfill()
        }
        await fulfillment(of: [closed], timeout: 10)
        // The line is free again: another link opens it.
        let next = try SerialSMPTransport(path: path)
        await next.close()
    }

    /// A board unplugged: the line hangs up and its reader ends. A message sent after that is
    /// refused in words, and never written into a file opened meanwhile, which may have the
    /// line's old descriptor number. Before, it was written to that number.
    func testAMessageAfterTheLineHungUpIsRefusedAndReachesNoOtherFile() async throws {
        let (peer, path) = try board()
        let transport = try SerialSMPTransport(path: path)
        // The board's end of the pseudo-terminal closes: the line hangs up.
        peer.stop()
        for await _ in transport.received {}
        // Given the lowest free number: the line's, when nothing else took it first.
        let filePath = NSTemporaryDirectory() + "favblue-after-hangup-\(UUID().uuidString)"
        let file = open(filePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        defer {
            Glibc.close(file)
            unlink(filePath)
        }
        var refusal: SMPProblem?
        do {
            try await transport.send([0x01, 0, 0, 0, 0, 0, 1, 0])
        } catch {
            refusal = error
        }
        XCTAssertEqual(refusal, .disconnected("The connection to the device ended."), "a message on a line that hung up is refused")
        var info = stat()
        XCTAssertEqual(fstat(file, &info), 0)
        XCTAssertEqual(info.st_size, 0, "nothing was written into the file opened after the hang-up")
        await transport.close()
    }

    func testTheCommandLineTakesASerialTarget() throws {
        let (peer, path) = try board()
        let (status, out, err) = try runTool(scanToolPath, ["mcumgr", "serial:\(path)@115200", "echo", "hello", "there"])
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(out.hasPrefix("hello there\n"), out)
        let (refused, _, why) = try runTool(scanToolPath, ["mcumgr", "serial:\(path)@fast", "echo", "hi"])
        XCTAssertEqual(refused, 2)
        XCTAssertEqual(why, "favblue-scan: “serial:\(path)@fast”: The speed after the @ must be a number of bits a second, such as 115200.\n")
        let (missing, _, gone) = try runTool(scanToolPath, ["mcumgr", "serial:/dev/favblue-no-such-tty", "echo", "hi"])
        XCTAssertEqual(missing, 3)
        XCTAssertEqual(gone, "favblue-scan: /dev/favblue-no-such-tty could not be opened: No such file or directory\n")
        peer.stop()
    }
}
