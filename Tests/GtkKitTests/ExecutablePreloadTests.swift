// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
@testable import GtkKit
import XCTest

final class ExecutablePreloadTests: XCTestCase {
    func testTheCodeSegmentOfARunningExecutableLiesInsideItsFile() throws {
        let fd = open("/proc/self/exe", O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var info = stat()
        XCTAssertEqual(fstat(fd, &info), 0)
        let segment = try XCTUnwrap(ExecutablePreload.codeSegment(of: fd))
        XCTAssertGreaterThan(segment.1, 0)
        XCTAssertLessThanOrEqual(segment.0 + segment.1, info.st_size)
        // The range holds this very test's code.
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        readelf.arguments = ["-l", "-W", "/proc/\(getpid())/exe"]
        let pipe = Pipe()
        readelf.standardOutput = pipe
        try readelf.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("LOAD") && $0.contains("R E") })
        let fields = line.split(separator: " ")
        XCTAssertEqual(Int64(fields[1].dropFirst(2), radix: 16), Int64(segment.0))
        XCTAssertEqual(Int64(fields[4].dropFirst(2), radix: 16), Int64(segment.1))
    }

    func testAFileThatIsNoELFExecutableGivesNoRange() throws {
        let path = NSTemporaryDirectory() + "preload-\(getpid())"
        defer { unlink(path) }
        for contents in [Data("#!/bin/sh\necho hello\n".utf8), Data([0x7F, 0x45, 0x4C, 0x46, 2, 1]), Data()] {
            try contents.write(to: URL(fileURLWithPath: path))
            let fd = open(path, O_RDONLY)
            defer { close(fd) }
            XCTAssertNil(ExecutablePreload.codeSegment(of: fd), "\(contents.count) bytes")
        }
    }
}
