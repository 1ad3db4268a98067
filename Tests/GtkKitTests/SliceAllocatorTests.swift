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
}
