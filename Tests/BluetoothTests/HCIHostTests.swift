// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// The host against a scripted controller on the other end of a socket pair: real H4 framing.
final class HCIHostTests: XCTestCase {
    private var controller: FileDescriptorTransport!
    private var host: HCIHost!

    override func setUpWithError() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        controller = FileDescriptorTransport(fd: fds[0], label: "controller")
        host = HCIHost(transport: FileDescriptorTransport(fd: fds[1], label: "test link"))
    }

    override func tearDown() {
        host.close()
        controller.close()
        super.tearDown()
    }

    /// Answers the next command the host sends with `events`, on a thread of its own.
    private func answerNextCommand(with events: @escaping @Sendable (_ opcode: UInt16) -> [[UInt8]]) {
        let controller = self.controller!
        Thread {
            guard let (type, bytes) = try? controller.receive(timeout: 5), type == .command, bytes.count >= 3 else { return }
            for event in events(UInt16(bytes[0]) | UInt16(bytes[1]) << 8) { try? controller.send(.event, event) }
        }.start()
    }

    private static func complete(_ opcode: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        [0x0E, UInt8(3 + parameters.count), 1, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + parameters
    }

    private static func status(_ status: UInt8, _ opcode: UInt16) -> [UInt8] {
        [0x0F, 4, status, 1, UInt8(opcode & 0xFF), UInt8(opcode >> 8)]
    }

    /// Inquiry Complete (Core v5.4, Vol 4, Part E, §7.7.1), as an event no command waits for.
    private static let inquiryComplete: [UInt8] = [0x01, 1, 0]

    func testWritingToAControllerThatWentAwayIsAnErrorNotTheEndOfTheProcess() {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        Glibc.close(fds[0])
        let link = FileDescriptorTransport(fd: fds[1], label: "gone")
        defer { link.close() }
        // Without SIGPIPE ignored, this write would end the test process.
        XCTAssertThrowsError(try link.send(.command, [0x03, 0x0C, 0x00])) { error in
            XCTAssertTrue("\(error)".contains("gone"), "\(error)")
        }
    }

    func testCommandCompleteHandsBackItsReturnParametersAndOtherEventsGoToClients() throws {
        let client = RecordingClient()
        host.add(client)
        host.start()
        answerNextCommand { [Self.inquiryComplete, Self.complete($0 ^ 1, [0]), Self.complete($0, [0, 0xAA, 0xBB])] }
        XCTAssertEqual(try host.command(.readBDAddr), [0, 0xAA, 0xBB])
        XCTAssertTrue(client.wait { $0.events.count == 2 })
        XCTAssertEqual(client.events.first, .inquiryComplete(status: 0), "what came before the answer is delivered")
        XCTAssertEqual(client.events.last, .commandComplete(opcode: HCICommand.readBDAddrOp ^ 1, returnParameters: [0]),
                       "an answer to another opcode is not taken for ours")
    }

    func testCommandStatusAnswersWhenAskedForAndOtherwiseWaitsForTheCompletion() throws {
        host.start()
        answerNextCommand { [Self.status(0, $0)] }
        XCTAssertEqual(try host.command(.inquiry(length: 4), expectStatus: true), [0])
        answerNextCommand { [Self.status(0, $0), Self.complete($0, [0, 7])] }
        XCTAssertEqual(try host.command(.readLocalVersion), [0, 7], "a pending status is not the answer")
    }

    func testANonZeroStatusIsATypedError() {
        host.start()
        answerNextCommand { [Self.complete($0, [0x0C])] }
        XCTAssertThrowsError(try host.command(.reset)) {
            XCTAssertEqual($0 as? ScanFailure, .controller("Reset failed with status 0xc"))
        }
        answerNextCommand { [Self.status(0x01, $0)] }
        XCTAssertThrowsError(try host.command(.inquiry(length: 4), expectStatus: true)) {
            XCTAssertEqual($0 as? ScanFailure, .controller("Inquiry failed with status 0x1"))
        }
    }

    func testACommandWithoutAnAnswerTimesOut() {
        host.start()
        let started = Date()
        XCTAssertThrowsError(try host.command(.leSetScanEnable(true), timeout: 0.3)) {
            XCTAssertEqual($0 as? ScanFailure, .controller("LE Set Scan Enable got no answer"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
    }

    func testEventsReachEveryClientInOrder() throws {
        let scanner = RecordingClient(), connections = RecordingClient()
        host.add(scanner)
        host.add(connections)
        host.start()
        // Disconnection Complete (§7.7.5), Number of Completed Packets (§7.7.19), an LE report (§7.7.65.2).
        let disconnection: [UInt8] = [0x05, 4, 0, 0x01, 0x00, 0x13]
        let completed: [UInt8] = [0x13, 5, 1, 0x01, 0x00, 0x02, 0x00]
        let report: [UInt8] = [0x3E, 15, 0x02, 1, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 3, 0x02, 0x01, 0x06, 0xC0]
        for event in [disconnection, completed, report] { try controller.send(.event, event) }
        let expected = try [disconnection, completed, report].map { try HCIEvent.decode($0[...]) }
        for client in [scanner, connections] {
            XCTAssertTrue(client.wait { $0.events.count == 3 })
            XCTAssertEqual(client.events, expected)
        }
        host.remove(connections)
        try controller.send(.event, Self.inquiryComplete)
        XCTAssertTrue(scanner.wait { $0.events.count == 4 })
        XCTAssertEqual(connections.events.count, 3, "a removed client hears nothing more")
    }

    func testDataIsReassembledOnceAndGoesToTheLinksMakerByHandle() async throws {
        let maker = RecordingOwner(), other = RecordingOwner()
        let host = self.host!
        func link(_ handle: UInt16, role: LELink.Role) -> LELink {
            let outbox = ACLOutbox(handle: handle, bufferSize: 27, bufferCount: 4) { bytes in try? host.sendACL(bytes) }
            return LELink(role: role, handle: handle, address: DeviceID(value: 0xAABBCCDDEE01, kind: .lePublic),
                          outbox: outbox, attTimeout: 1, server: ATTServer(database: LocalAttributes().database))
        }
        host.links.open(link(1, role: .central), for: maker)
        host.links.open(link(2, role: .peripheral), for: other)
        host.start()
        // One ATT frame of 6 bytes on handle 1 in two fragments (Vol 4, Part E, §5.4.2), then one on a handle no link has.
        try controller.send(.acl, [0x01, 0x20, 0x05, 0x00, 0x06, 0x00, 0x04, 0x00, 0x1B])
        try controller.send(.acl, [0x01, 0x10, 0x05, 0x00, 0x03, 0x00, 0x68, 0x69, 0x21])
        try controller.send(.acl, [0x09, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x1B])
        // Disconnection Complete for handle 1: its link leaves the table after the clients hear it.
        try controller.send(.event, [0x05, 4, 0, 0x01, 0x00, 0x13])
        await eventually(timeout: 3) { host.links.link(1) == nil }
        XCTAssertEqual(maker.frames.map(\.channel), [L2CAPFrame.attChannel])
        XCTAssertEqual(maker.frames.first?.payload, [0x1B, 0x03, 0x00, 0x68, 0x69, 0x21], "a notification of “hi!” on handle 3")
        XCTAssertEqual(maker.handles, [1])
        XCTAssertTrue(other.frames.isEmpty, "the other link's maker hears nothing of handle 1's data")
        XCTAssertNil(host.links.link(1))
        XCTAssertNotNil(host.links.link(2))
    }

    func testTheEndOfTheLinkReachesEveryClientAndTheWaitingCommand() throws {
        let first = RecordingClient(), second = RecordingClient()
        host.add(first)
        host.add(second)
        host.start()
        let link = controller!
        // The controller takes the command, then hangs up (unread data would make it a reset instead).
        Thread {
            _ = try? link.receive(timeout: 2)
            link.close()
        }.start()
        XCTAssertThrowsError(try host.command(.reset, timeout: 5)) {
            XCTAssertEqual($0 as? ScanFailure, .disconnected("test link closed the connection"))
        }
        for client in [first, second] {
            XCTAssertTrue(client.wait { $0.closed != nil })
            XCTAssertEqual(client.closed, .disconnected("test link closed the connection"))
        }
        XCTAssertEqual(host.endReason, .disconnected("test link closed the connection"))
        let late = RecordingClient()
        host.add(late)
        XCTAssertEqual(late.closed, .disconnected("test link closed the connection"), "a late client hears of the end at once")
        XCTAssertThrowsError(try host.command(.reset)) { XCTAssertEqual($0 as? ScanFailure, host.endReason) }
    }

    func testCloseEndsTheReadLoopPromptlyAndSaysSo() {
        let client = RecordingClient()
        host.add(client)
        host.start()
        let started = Date()
        host.close()
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        XCTAssertEqual(client.closed, .disconnected("no link"), "close() returns after the clients heard")
        XCTAssertThrowsError(try controller.receive(timeout: 1), "the host closed its end")
    }

    /// A reader told to stop is woken, rather than left waiting out its poll: `close()` of a host
    /// returned up to 0.2 s late, one `favblue-scan gatt` exit in seven or so. What came meanwhile
    /// is not lost.
    func testAWokenReceiveReturnsAtOnceAndLosesNothing() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        let near = FileDescriptorTransport(fd: fds[0], label: "near"), far = FileDescriptorTransport(fd: fds[1], label: "far")
        defer { near.close(); far.close() }
        let returned = DispatchSemaphore(value: 0)
        let got = Received()
        Thread {
            got.packet = try? near.receive(timeout: 30)
            returned.signal()
        }.start()
        // Waiting already or not yet, the receive ends: a wake with none waiting ends the next one.
        near.wake()
        XCTAssertEqual(returned.wait(timeout: .now() + 10), .success, "woken, not left to its 30 s")
        XCTAssertNil(got.packet)
        try far.send(.event, Self.inquiryComplete)
        near.wake()
        let packet = try near.receive(timeout: 5)
        XCTAssertEqual(packet?.0, .event)
        XCTAssertEqual(packet?.1, Self.inquiryComplete, "a packet beside a wake is still read")
    }

    /// A link closed while another thread waits on it: the wait ends, and the descriptor stays
    /// its own until then. Closed under the reader, its number went to the next socket opened,
    /// whose packets that reader then took: a scripted controller of one test answered the
    /// scanner of the next, and its advertising report never came (CI, stop 74).
    func testClosingALinkUnderItsReaderEndsTheWaitAndLeavesTheNextSocketAlone() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        let old = FileDescriptorTransport(fd: fds[0], label: "old"), oldFar = FileDescriptorTransport(fd: fds[1], label: "old far")
        defer { oldFar.close() }
        let returned = DispatchSemaphore(value: 0)
        let got = Received()
        let failure = ReceivedFailure()
        Thread.named("hold-read") {
            do {
                got.packet = try old.receive(timeout: 30)
            } catch {
                failure.error = error as? ScanFailure
            }
            returned.signal()
        }.start()
        XCTAssertTrue(untilAsleep(threadNamed: "hold-read"), "the reader waits on the link")
        old.close()

        var next: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &next), 0)
        let near = FileDescriptorTransport(fd: next[0], label: "near"), far = FileDescriptorTransport(fd: next[1], label: "far")
        defer { near.close(); far.close() }
        try far.send(.event, Self.inquiryComplete)
        XCTAssertEqual(returned.wait(timeout: .now() + 10), .success, "the closed link's reader was woken, not left to its 30 s")
        XCTAssertNil(got.packet, "the closed link's reader took nothing")
        XCTAssertEqual(failure.error, .disconnected("no link"))
        let packet = try near.receive(timeout: 5)
        XCTAssertEqual(packet?.1, Self.inquiryComplete, "the next socket's packet reached its own reader")
        XCTAssertThrowsError(try old.receive(timeout: 1), "a closed link stays closed")
    }

    /// A controller that stopped reading: a send waits for room that never comes. Closing the
    /// link from another thread ends that send with an error, rather than leaving its thread held.
    func testClosingALinkEndsASendAControllerThatStoppedReadingHolds() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        let link = FileDescriptorTransport(fd: fds[0], label: "stuck")
        defer { Glibc.close(fds[1]) }
        let ended = DispatchSemaphore(value: 0)
        let failure = ReceivedFailure()
        Thread.named("hold-send") {
            // Far more than a socket buffer holds; the far end never reads.
            let packet = [UInt8](repeating: 0, count: 1_000)
            do {
                for _ in 0..<100_000 { try link.send(.acl, [0x40, 0x00] + HCICommand.le16(UInt16(packet.count)) + packet) }
            } catch {
                failure.error = error as? ScanFailure
            }
            ended.signal()
        }.start()
        // Held: the buffer is full long before the sends are done.
        XCTAssertTrue(untilAsleep(threadNamed: "hold-send"), "the send waits for a controller that reads")
        XCTAssertEqual(ended.wait(timeout: .now()), .timedOut, "the send waits for a controller that reads")
        link.close()
        XCTAssertEqual(ended.wait(timeout: .now() + 10), .success, "the close ended the held send")
        XCTAssertEqual(failure.error, .disconnected("no link"), "and it failed, saying the link is gone")
    }

    /// The host's reader is listed under its own name, where top, gdb and the benchmarks look.
    func testTheHostsReaderCarriesItsNameWhileItWaits() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        let host = HCIHost(transport: FileDescriptorTransport(fd: fds[0], label: "quiet"))
        defer {
            host.close()
            Glibc.close(fds[1])
        }
        host.start()
        XCTAssertTrue(untilAsleep(threadNamed: "favblue-hcihost"), "a thread named favblue-hcihost waits on the link")
    }

    /// The host's own close, with a send held by a controller that stopped reading: it returns,
    /// where it waited for that send for good.
    func testTheHostClosesThoughAControllerThatStoppedReadingHoldsASend() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        let stuck = HCIHost(transport: FileDescriptorTransport(fd: fds[0], label: "stuck"))
        defer { Glibc.close(fds[1]) }
        stuck.start()
        let held = DispatchSemaphore(value: 0)
        Thread.named("host-send") {
            let packet = [UInt8](repeating: 0, count: 1_000)
            for _ in 0..<100_000 {
                guard (try? stuck.sendACL([0x40, 0x00] + HCICommand.le16(UInt16(packet.count)) + packet)) != nil else { break }
            }
            held.signal()
        }.start()
        XCTAssertTrue(untilAsleep(threadNamed: "host-send"), "the send waits for a controller that reads")
        XCTAssertEqual(held.wait(timeout: .now()), .timedOut, "the send waits for a controller that reads")
        let closed = DispatchSemaphore(value: 0)
        Thread {
            stuck.close()
            closed.signal()
        }.start()
        XCTAssertEqual(closed.wait(timeout: .now() + 10), .success, "the host closed")
        XCTAssertEqual(held.wait(timeout: .now() + 10), .success, "and the held send ended")
        XCTAssertThrowsError(try stuck.sendACL([0x40, 0x00, 0x00, 0x00]), "a send after the close fails")
    }

    func testEveryPacketIsRecorded() throws {
        let path = NSTemporaryDirectory() + "favblue-host-\(UUID().uuidString).btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopWriter(path: path)
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        controller = FileDescriptorTransport(fd: fds[0], label: "controller")
        host = HCIHost(transport: FileDescriptorTransport(fd: fds[1], label: "test link"), record: writer)
        host.start()
        answerNextCommand { [Self.complete($0, [0])] }
        _ = try host.command(.reset)
        host.close()
        writer.close()
        let packets = try BtsnoopReader(path: path).packets().packets
        XCTAssertEqual(packets.map(\.type), [.command, .event])
        XCTAssertEqual(packets.map(\.received), [false, true])
        XCTAssertEqual(packets.first?.bytes, HCICommand.reset.packet)
    }
}

/// A host client that keeps what it hears.
private final class RecordingClient: HCIHostClient, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [HCIEvent] = []
    private var _closed: ScanFailure?

    var events: [HCIEvent] { lock.withLock { _events } }
    var closed: ScanFailure? { lock.withLock { _closed } }

    func host(_ host: HCIHost, didReceive event: HCIEvent) { lock.withLock { _events.append(event) } }
    func hostDidClose(_ host: HCIHost, reason: ScanFailure) { lock.withLock { _closed = reason } }

    /// Waits up to 3 s for `condition`.
    func wait(_ condition: (RecordingClient) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if condition(self) { return true }
            // A poll of the host's read thread, not a fixed wait.
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }
}

private final class RecordingOwner: LinkOwner, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [(UInt16, L2CAPFrame)] = []

    var frames: [L2CAPFrame] { lock.withLock { received.map(\.1) } }
    var handles: [UInt16] { lock.withLock { received.map(\.0) } }

    func host(_ host: HCIHost, didReceive frame: L2CAPFrame, on link: LELink) {
        lock.withLock { received.append((link.handle, frame)) }
    }
}

/// What a reading thread got; read after its semaphore, which orders the two.
private final class Received: @unchecked Sendable {
    var packet: (H4PacketType, [UInt8])?
}

private final class ReceivedFailure: @unchecked Sendable {
    var error: ScanFailure?
}
