// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// The capture reader on files (read in chunks) against the same bytes in memory.
final class BtsnoopFileTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "favblue-snoop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
        super.tearDown()
    }

    private var captures: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CaptureTests.captures.path)) ?? []
        return names.filter { $0.hasSuffix(".btsnoop") }.sorted().map { CaptureTests.captures.appending(path: $0).path }
            + [CaptureTests.root.appending(path: "data/demo.btsnoop").path]
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testAFileGivesTheSamePacketsAsItsBytesInMemoryWhateverTheChunkSize() throws {
        XCTAssertEqual(captures.count, 4, "three fixtures and the demo")
        for path in captures {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let memory = try BtsnoopReader(data: bytes).packets()
            XCTAssertNil(memory.truncated, path)
            XCTAssertFalse(memory.packets.isEmpty, path)
            // 64 and 100 bytes cut records at every kind of place; a mebibyte holds these captures whole.
            for chunk in [64, 100, 4096, 1 << 20] {
                let file = try BtsnoopReader(path: path, chunkSize: chunk).packets()
                XCTAssertNil(file.truncated, "\(path), chunks of \(chunk)")
                XCTAssertEqual(file.packets, memory.packets, "\(path), chunks of \(chunk)")
            }
            XCTAssertEqual(try BtsnoopReader(path: path).datalink, try BtsnoopReader(data: bytes).datalink)
        }
    }

    func testATruncatedFileKeepsEverythingBeforeTheCutAndReportsIt() throws {
        for path in captures {
            let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            for cut in [7, 23, 30] {
                let bytes = Array(whole.prefix(whole.count - cut))
                let file = try write(bytes, "cut.btsnoop")
                let memory = try BtsnoopReader(data: bytes).packets()
                for chunk in [64, 1 << 20] {
                    let read = try BtsnoopReader(path: file, chunkSize: chunk).packets()
                    XCTAssertEqual(read.packets, memory.packets, "\(path) less \(cut) bytes, chunks of \(chunk)")
                    XCTAssertEqual(read.truncated, memory.truncated)
                    guard case .truncated(let records)? = read.truncated else { return XCTFail("\(path): the cut is reported") }
                    XCTAssertGreaterThan(records, 0)
                    XCTAssertTrue(read.truncated!.message.contains("middle of a record"))
                }
            }
        }
    }

    func testARecordClaimingMoreThanTheFileHoldsIsATruncationNotAnAllocation() throws {
        let header = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
        let record: [UInt8] = [0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF, 0xF0] + [UInt8](repeating: 0, count: 16) + [0x04, 0x0E]
        let path = try write(header + record + [UInt8](repeating: 0, count: 200), "huge.btsnoop")
        let read = try BtsnoopReader(path: path, chunkSize: 64).packets()
        XCTAssertEqual(read.packets, [])
        XCTAssertEqual(read.truncated, .truncated(records: 0))
    }

    func testAFileThatShrinksAfterOpeningEndsAsATruncatedCapture() throws {
        let source = captures[0]
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: source)))
        let path = try write(whole, "shrinking.btsnoop")
        let reader = try BtsnoopReader(path: path, chunkSize: 64)
        XCTAssertEqual(truncate(path, off_t(whole.count / 2 + 5)), 0)
        let read = reader.packets()
        let memory = try BtsnoopReader(data: Array(whole.prefix(whole.count / 2 + 5))).packets()
        XCTAssertEqual(read.packets, memory.packets)
        XCTAssertEqual(read.truncated, memory.truncated)
        XCTAssertEqual(truncate(path, 0), 0)
        XCTAssertEqual(reader.packets().packets, [], "a file emptied after opening holds nothing")
    }

    func testEmptyMissingAndDirectoryPathsAreErrorsWithAReason() throws {
        XCTAssertThrowsError(try BtsnoopReader(path: try write([], "empty.btsnoop"))) { XCTAssertEqual($0 as? BtsnoopError, .badMagic) }
        XCTAssertThrowsError(try BtsnoopReader(path: try write(Array("btsnoop".utf8), "short"))) {
            XCTAssertEqual($0 as? BtsnoopError, .badMagic)
        }
        XCTAssertThrowsError(try BtsnoopReader(path: folder + "/missing.btsnoop")) {
            XCTAssertTrue(($0 as? BtsnoopError)?.message.contains("no readable file") == true, "\($0)")
        }
        XCTAssertThrowsError(try BtsnoopReader(path: folder)) {
            XCTAssertTrue(($0 as? BtsnoopError)?.message.contains("no readable file") == true, "\($0)")
        }
    }

    func testAFIFOIsReadWhole() throws {
        let source = captures[0]
        let fifo = folder + "/capture.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(bytes)
                try? handle.close()
            }
        }
        writer.start()
        let read = try BtsnoopReader(path: fifo).packets()
        XCTAssertNil(read.truncated)
        XCTAssertEqual(read.packets, try BtsnoopReader(data: [UInt8](bytes)).packets().packets)
    }

    func testStoppingEarlyReadsNoFurther() throws {
        let path = captures[0]
        var seen = 0
        var problem: BtsnoopError?
        try BtsnoopReader(path: path, chunkSize: 64).visitPackets({ _ in
            seen += 1
            return seen < 3
        }, truncated: { problem = $0 })
        XCTAssertEqual(seen, 3)
        XCTAssertNil(problem)
    }
}
