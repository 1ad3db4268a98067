// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
import Domain
import Foundation
import TestSupport
import XCTest

/// CBOR as RFC 8949 lays it out, and what a hostile device's bytes get: words, never a trap.
final class CBORTests: XCTestCase {
    func testItemsEncodeWithTheShortestHeads() {
        XCTAssertEqual(CBOR.int(0).encoded, [0x00])
        XCTAssertEqual(CBOR.int(23).encoded, [0x17])
        XCTAssertEqual(CBOR.int(24).encoded, [0x18, 0x18])
        XCTAssertEqual(CBOR.int(1_000).encoded, [0x19, 0x03, 0xE8])
        XCTAssertEqual(CBOR.int(1_000_000).encoded, [0x1A, 0x00, 0x0F, 0x42, 0x40])
        XCTAssertEqual(CBOR.int(-1).encoded, [0x20])
        XCTAssertEqual(CBOR.int(-1_000).encoded, [0x39, 0x03, 0xE7])
        XCTAssertEqual(CBOR.text("ü").encoded, [0x62, 0xC3, 0xBC])
        XCTAssertEqual(CBOR.object(["d": .text("hi")]).encoded, [0xA1, 0x61, 0x64, 0x62, 0x68, 0x69])
        XCTAssertEqual(CBOR.array([.bool(true), .null]).encoded, [0x82, 0xF5, 0xF6])
    }

    func testIndefiniteMapsAsZephyrSendsThemAreRead() throws {
        // {"r": "hi"} with an indefinite map, and a byte string in two parts (§3.2.3).
        let map = try CBOR.decode([0xBF, 0x61, 0x72, 0x62, 0x68, 0x69, 0xFF])
        XCTAssertEqual(map["r"]?.text, "hi")
        XCTAssertEqual(try CBOR.decode([0x5F, 0x42, 1, 2, 0x41, 3, 0xFF]), .bytes([1, 2, 3]))
        XCTAssertEqual(try CBOR.decode([0x9F, 0x01, 0x9F, 0xFF, 0xFF]), .array([.unsigned(1), .array([])]))
    }

    func testHostileBytesAreRefusedInWords() {
        let cases: [([UInt8], String)] = [
            ([], "The CBOR ends in the middle of an item."),
            ([0x5A, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2], "The CBOR announces more than it holds."),  // a 4 GB byte string
            ([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "The CBOR announces more than it holds."),
            ([0x62, 0xC3, 0x28], "A CBOR text is not UTF-8."),
            ([0xFF], "A CBOR break stands where no list or map is open."),
            ([0x1C], "The CBOR has a reserved length code (28)."),
            ([0x01, 0x02], "1 byte follows the CBOR item."),
            ([0xBF, 0x61, 0x72, 0xFF], "A CBOR map ends on a key without its value."),
            ([UInt8](repeating: 0x81, count: 10_000) + [0x00], "The CBOR is nested too deeply."),
            ([UInt8](repeating: 0x9F, count: 10_000), "The CBOR is nested too deeply."),
        ]
        for (bytes, message) in cases {
            XCTAssertThrowsError(try CBOR.decode(bytes), "\(bytes.prefix(8))") { error in
                XCTAssertEqual((error as? CBORProblem)?.message, message)
            }
        }
    }
}

/// SMP's header and its two error forms, in words.
final class SMPMessageTests: XCTestCase {
    func testTheHeaderIsAsTheProtocolLaysItOut() throws {
        let echo = SMPMessage(operation: .write, group: 0, sequence: 7, command: 0, body: .object(["d": .text("hi")]))
        XCTAssertEqual(echo.bytes, [0x0A, 0x00, 0x00, 0x06, 0x00, 0x00, 0x07, 0x00, 0xA1, 0x61, 0x64, 0x62, 0x68, 0x69])
        XCTAssertEqual(try SMPMessage.decode(echo.bytes), echo)
        XCTAssertThrowsError(try SMPMessage.decode(Array(echo.bytes.dropLast())), "a header whose length lies")
    }

    func testBothErrorFormsAreReadAndSaidInWords() throws {
        let v2 = SMPMessage(operation: .writeResponse, group: 1, sequence: 1, command: 1,
                            body: .object(["err": .object(["group": .int(1), "rc": .int(27)])]))
        XCTAssertEqual(v2.error?.message, "The device refused the image: it is not newer than the one running.")
        let v1 = SMPMessage(operation: .writeResponse, version: 0, group: 1, sequence: 1, command: 1, body: .object(["rc": .int(8)]))
        XCTAssertEqual(v1.error?.message, "The device does not offer this.")
        let fine = SMPMessage(operation: .readResponse, group: 0, sequence: 1, command: 6, body: .object(["rc": .int(0), "buf_size": .int(2048)]))
        XCTAssertNil(fine.error)
    }
}

/// MCUboot images, made here byte by byte from MCUboot's design.md; imgtool's are read in the peer tests.
final class MCUbootImageTests: XCTestCase {
    /// A header of 32 bytes (0x20), `size` bytes of image, and the TLVs: SHA-256 and a KEYHASH.
    static func image(size: Int = 100, version: (UInt8, UInt8, UInt16, UInt32) = (1, 2, 3, 4), tlvLength: UInt16? = nil) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
        var out = le32(0x96F3_B83D) + le32(0) + le16(32) + le16(0) + le32(UInt32(size)) + le32(0)
        out += [version.0, version.1] + le16(version.2) + le32(version.3) + le32(0)
        out += (0..<size).map { UInt8($0 & 0xFF) }
        let hash = [UInt8](repeating: 0xAB, count: 32)
        let tlvs = [0x10, 0x00] + le16(32) + hash + [0x01, 0x00] + le16(4) + [9, 9, 9, 9]
        out += le16(0x6907) + le16(tlvLength ?? UInt16(4 + tlvs.count)) + tlvs
        return out
    }

    func testTheHeaderTheTLVsAndTheHashAreRead() throws {
        let image = try MCUbootImage.read(Self.image())
        XCTAssertEqual(image.version.description, "1.2.3+4")
        XCTAssertEqual(image.imageSize, 100)
        XCTAssertEqual(image.fileSize, 32 + 100 + 4 + 44)
        XCTAssertEqual(image.hash, [UInt8](repeating: 0xAB, count: 32))
        XCTAssertEqual(image.tlvs.map(\.name), ["SHA256", "KEYHASH"])
        XCTAssertEqual(MCUbootImage.Version("1.2.3+4"), image.version)
        XCTAssertLessThan(MCUbootImage.Version("1.2.3")!, image.version)
    }

    func testAFileThatIsNoImageIsRefusedBeforeAnyByteIsSentInWords() {
        let good = Self.image()
        let cases: [([UInt8], String)] = [
            (Array("PK\u{3}\u{4} a zip".utf8) + [UInt8](repeating: 0, count: 40), "This is not an MCUboot image: it does not start with MCUboot's magic number."),
            (Array(good.prefix(90)), "The image is cut short: the image should be 132 bytes long with its header, and the file ends sooner."),
            (Array(good.dropLast(10)), "The image is cut short: the file ends inside the image's TLVs."),
            (Self.image(tlvLength: 30), "This is not an MCUboot image: a TLV says it is longer than its area."),
            (Array(good.prefix(20)), "This is not an MCUboot image: it is shorter than an MCUboot header."),
        ]
        for (bytes, message) in cases {
            XCTAssertThrowsError(try MCUbootImage.read(bytes)) { XCTAssertEqual(($0 as? MCUbootImageProblem)?.message, message) }
        }
        XCTAssertEqual(MCUbootImageProblem.tooLarge(2 << 30).message.hasPrefix("The file is "), true)
    }
}

/// The upload against a device played here: parts fill its buffer, a window of them in flight,
/// its offset taken as the truth, and an offset that keeps going back given up in words.
final class SMPUploadTests: XCTestCase {
    func testAnImageGoesUpInPartsThatFillTheBufferWithAWindowInFlight() async throws {
        let device = FakeSMPDevice(bufferSize: 512)
        let client = SMPClient(transport: device)
        let image = (0..<5_000).map { UInt8($0 % 256) }
        let seen = UploadLog()
        try await client.uploadImage(image, sha: [UInt8](repeating: 1, count: 32), parameters: SMPParameters(bufferSize: 512, bufferCount: 4)) {
            seen.add($0)
        }
        XCTAssertEqual(device.written, image, "every byte, in order")
        XCTAssertTrue(device.requestSizes.allSatisfy { $0 <= 512 }, "no request past the buffer: \(device.requestSizes)")
        XCTAssertGreaterThanOrEqual(device.requestSizes.dropLast().min() ?? 0, 500, "each part but the last fills the buffer: \(device.requestSizes)")
        XCTAssertEqual(device.mostInFlight, 3, "the buffer count less the one the answer takes")
        XCTAssertEqual(seen.all.first?.preparing, true)
        XCTAssertEqual(seen.all.last?.done, 5_000)
    }

    func testAnswersThatComeInAnotherOrderSendNoPartTwice() async throws {
        let device = FakeSMPDevice(bufferSize: 512, reordering: true)
        let client = SMPClient(transport: device)
        let image = (0..<5_000).map { UInt8($0 % 253) }
        try await client.uploadImage(image, sha: nil, parameters: SMPParameters(bufferSize: 512, bufferCount: 4)) { _ in }
        XCTAssertEqual(device.written, image, "every byte, in order")
        XCTAssertGreaterThan(device.answersSwapped, 0, "some answers came after the one asked after them")
        XCTAssertEqual(device.offsets, Array(Set(device.offsets)).sorted(), "each part once, in order")
    }

    func testAPartLostOnTheWayIsSentAgainFromTheDevicesOffset() async throws {
        let device = FakeSMPDevice(bufferSize: 512, dropping: [3])
        let client = SMPClient(transport: device, timeout: .milliseconds(200))
        let image = (0..<4_000).map { UInt8($0 % 251) }
        try await client.uploadImage(image, sha: nil, parameters: SMPParameters(bufferSize: 512, bufferCount: 4)) { _ in }
        XCTAssertEqual(device.written, image)
    }

    func testAnOffsetThatKeepsGoingBackIsGivenUpInWords() async throws {
        let device = FakeSMPDevice(bufferSize: 512, stuckAt: 1_000)
        let client = SMPClient(transport: device, timeout: .milliseconds(200))
        let image = [UInt8](repeating: 7, count: 4_000)
        do {
            try await client.uploadImage(image, sha: nil, parameters: SMPParameters(bufferSize: 512, bufferCount: 2)) { _ in }
            XCTFail("a device that never moves on")
        } catch {
            XCTAssertTrue(error.message.hasPrefix("The device keeps asking for the same part again; the upload stopped at"), error.message)
        }
    }

    func testNoAnswerTimesOutOnTheClock() async throws {
        let device = FakeSMPDevice(bufferSize: 512, silent: true)
        let clock = TestClock()
        let client = SMPClient(transport: device, clock: clock, timeout: .seconds(5))
        let ended = Flag()
        let asking = Task {
            defer { ended.set() }
            return try await client.parameters()
        }
        let timedOut = await advance(clock, by: .seconds(5), until: { ended.isSet })
        XCTAssertTrue(timedOut, "the request ended on the test clock")
        do {
            _ = try await asking.value
            XCTFail("no answer")
        } catch let problem as SMPProblem {
            XCTAssertEqual(problem, .timedOut)
        }
    }
}

/// Set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

final class UploadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [TransferProgress] = []
    func add(_ p: TransferProgress) { lock.withLock { seen.append(p) } }
    var all: [TransferProgress] { lock.withLock { seen } }
}

/// Update Firmware end to end against a board played here: upload, mark, restart, come back,
/// confirm, on a clock the test runs (no real waiting for the restart).
final class FirmwareUpdateTests: XCTestCase {
    private let bytes = MCUbootImageTests.image(size: 3_000, version: (2, 0, 0, 0))

    private func run(_ board: FakeSMPBoard, mode: FirmwareUpdate.Mode) async -> (Result<Void, FirmwareUpdate.Failure>, [String]) {
        let clock = ImmediateClock()
        let update = FirmwareUpdate(clock: clock, restartTime: .seconds(30)) { () throws(SMPProblem) -> SMPClient in try board.connect() }
        let steps = StepLog()
        do {
            try await update.run(bytes, image: try! MCUbootImage.read(bytes), mode: mode) { steps.add($0) }
            return (.success(()), steps.words)
        } catch {
            return (.failure(error), steps.words)
        }
    }

    func testTestAndConfirmRestartsWaitsForTheDeviceAndConfirmsTheNewImage() async {
        let board = FakeSMPBoard()
        let (result, words) = await run(board, mode: .testAndConfirm)
        XCTAssertNoThrow(try result.get())
        // The same step said again (each part sent) counts once.
        let said = words.enumerated().filter { $0.offset == 0 || words[$0.offset - 1] != $0.element }.map(\.element)
        XCTAssertEqual(said, [
            "Preparing the device…", "Sending the image…", "Marking the image to run…", "Restarting the device…",
            "Waiting for the device to come back…", "Confirming the image…", "Now running 2.0.0",
        ])
        XCTAssertEqual(board.running.version, "2.0.0")
        XCTAssertTrue(board.confirmed)
        XCTAssertEqual(board.restarts, 1)
    }

    func testTestOnlyLeavesTheRestartToTheUser() async {
        let board = FakeSMPBoard()
        let (result, words) = await run(board, mode: .testOnly)
        XCTAssertNoThrow(try result.get())
        XCTAssertEqual(words.last, "2.0.0 runs after the next restart")
        XCTAssertEqual(board.restarts, 0)
        XCTAssertEqual(board.running.version, "1.0.0")
    }

    func testADeviceThatComesBackWithItsOldImageIsSaidInWordsAtTheStepThatFailed() async {
        let board = FakeSMPBoard()
        board.takesImage = false
        let (result, _) = await run(board, mode: .testAndConfirm)
        guard case .failure(let failure) = result else { return XCTFail("the bootloader refused the image") }
        XCTAssertEqual(failure.step, .waiting)
        XCTAssertEqual(failure.message, "The device came back running 1.0.0, not the new image: its bootloader did not take it. Check that the image was signed for this device.")
    }

    func testADeviceThatNeverComesBackIsGivenUpAfterTheRestartTime() async {
        let board = FakeSMPBoard()
        board.restartConnects = 1_000
        let (result, _) = await run(board, mode: .confirmOnly)
        guard case .failure(let failure) = result else { return XCTFail("it never came back") }
        XCTAssertEqual(failure.step, .waiting)
        XCTAssertTrue(failure.message.hasSuffix("The device did not come back after its restart: check it is on and in reach, then list its images."),
                      failure.message)
    }
}

final class StepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    func add(_ step: FirmwareUpdate.Step) { lock.withLock { seen.append(step.words) } }
    var words: [String] { lock.withLock { seen } }
}

/// Update Firmware on the page: what its section is told, and when.
@MainActor
final class DeviceManagerUpdateTests: XCTestCase {
    private final class Told {
        var steps: [FirmwareUpdate.Step] = []
    }

    /// "Preparing the device…" lasts while the device erases, not a moment longer: the first part
    /// taken is told at once, though progress is told at most ten times a second.
    func testThePageStopsSayingPreparingWithTheFirstPartTaken() async throws {
        let board = FakeSMPBoard()
        let bytes = MCUbootImageTests.image(size: 20_000, version: (2, 0, 0, 0))
        // The page's clock stands still, so every progress after the first falls within the interval.
        let manager = DeviceManager(name: "Board", now: { Date(timeIntervalSince1970: 0) }) { () throws(SMPProblem) -> SMPTransport in
            FakeSMPDevice(bufferSize: 512, board: board)
        }
        let told = Told()
        let ready = expectation(description: "the board's images listed")
        let finished = expectation(description: "the update ended")
        ready.assertForOverFulfill = false
        finished.assertForOverFulfill = false
        let token = manager.observe {
            if manager.phase == .ready { ready.fulfill() }
            if let step = manager.update?.step, told.steps.last != step { told.steps.append(step) }
            if manager.update?.isRunning == false { finished.fulfill() }
        }
        await fulfillment(of: [ready], timeout: 10)
        manager.startUpdate([UpdateImage(number: 0, bytes: bytes, image: try MCUbootImage.read(bytes))], fileName: "app.bin", mode: .testOnly)
        await fulfillment(of: [finished], timeout: 10)
        withExtendedLifetime(token) {}
        XCTAssertEqual(told.steps.first, .uploading(TransferProgress(done: 0, total: bytes.count, preparing: true)))
        let sent = told.steps.compactMap { step -> Int? in
            if case .uploading(let progress) = step, !progress.preparing { return progress.done }
            return nil
        }
        XCTAssertEqual(told.steps.dropFirst().first.map { if case .uploading = $0 { true } else { false } }, true,
                       "sending follows preparing on the page: \(told.steps.map(\.words))")
        XCTAssertLessThanOrEqual(sent.first ?? .max, 512, "told with the first part, not a tenth of a second later: \(sent)")
        XCTAssertEqual(told.steps.last?.words, "2.0.0 runs after the next restart")
    }
}
