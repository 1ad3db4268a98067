// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
import Foundation
import XCTest

/// The hearts on every row and on the empty Favorites page, the Scanner's "Looking for devices" and
/// the spinners are drawn from symbolic PNGs encoded at build time, as Adwaita ships its own: an SVG
/// would load the SVG renderer (before the first frame, or when the Scanner first looks for devices).
final class SymbolicIconTests: XCTestCase {
    private func lookup(_ name: String, size: Int32, scale: Int32) throws -> (uri: String, symbolic: Bool) {
        MainActor.assumeIsolated { WindowHarness.setUp() }
        gtk_init()
        let theme = gtk_icon_theme_get_for_display(gdk_display_get_default())
        gtk_icon_theme_add_resource_path(theme, "/io/github/favblue/FavBlue/icons")
        let icon = try XCTUnwrap(gtk_icon_theme_lookup_icon(theme, name, nil, size, scale, GTK_TEXT_DIR_NONE, GtkIconLookupFlags(0)))
        defer { g_object_unref(UnsafeMutableRawPointer(icon)) }
        let file = try XCTUnwrap(gtk_icon_paintable_get_file(icon))
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let uri = try XCTUnwrap(g_file_get_uri(file))
        defer { g_free(uri) }
        return (String(cString: uri), gtk_icon_paintable_is_symbolic(icon) != 0)
    }

    func testTheHeartsAtAButtonsAndTheEmptyPagesSizesAreEncodedSymbolicPNGs() throws {
        for name in ["favblue-heart-outline-symbolic", "favblue-heart-filled-symbolic", "favblue-searching-symbolic",
                     "favblue-working-symbolic"] {
            for (size, scale) in [(16, 1), (16, 2), (128, 1), (128, 2)] {
                let icon = try lookup(name, size: Int32(size), scale: Int32(scale))
                XCTAssertTrue(icon.uri.hasSuffix("/\(name).symbolic.png"), "\(name) at \(size)@\(scale): \(icon.uri)")
                XCTAssertTrue(icon.symbolic, "recoloured with the text, in dark style too: \(icon.uri)")
            }
        }
    }

    func testOtherSizesStillDrawTheSVG() throws {
        let icon = try lookup("favblue-heart-outline-symbolic", size: 48, scale: 1)
        XCTAssertTrue(icon.uri.hasSuffix("/favblue-heart-outline-symbolic.svg"), icon.uri)
        XCTAssertTrue(icon.symbolic)
    }
}
