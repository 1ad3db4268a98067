// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
@testable import GtkKit
import XCTest

/// GLib's small blocks come from malloc in every process that links GtkKit, set before GLib
/// loads: this test process is one.
final class SliceAllocatorTests: XCTestCase {
    func testGLibsSlicesComeFromMallocWithoutARestart() throws {
        if let slice = ProcessInfo.processInfo.environment["G_SLICE"] {
            throw XCTSkip("G_SLICE=\(slice) was set for this run; the user's setting wins")
        }
        XCTAssertTrue(SliceAllocator.usesMalloc, "always-malloc set from the executable's .preinit_array")
        XCTAssertNil(getenv("G_SLICE"), "set in GLib's configuration, not by restarting with the variable")
    }

    /// The resident pages of this program's own code, in KiB, from /proc/self/smaps.
    private func residentCodeKiB() throws -> Int {
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var inCode = false
        var total = 0
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), !fields[0].hasSuffix(":") {
                inCode = fields[1].contains("x") && fields.count >= 6 && fields[5...].joined(separator: " ") == exe
            } else if inCode, fields.first == "Rss:", let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }

    func testTheCodeStartUpRanIsGivenBackAndWhatRunsLaterIsReadAgain() throws {
        let before = try residentCodeKiB()
        XCTAssertGreaterThan(before, 1024, "this test program has run more than a MiB of its own code")
        SliceAllocator.giveBackStartupCode()
        let after = try residentCodeKiB()
        XCTAssertLessThan(after, before / 2, "\(before) KiB resident before, \(after) KiB after")
        // Code given back runs again when called: this test reads smaps once more.
        XCTAssertGreaterThan(try residentCodeKiB(), 0)
    }
}
