// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

final class DrawingAreaTests: GtkTestCase {
    func testTheDrawCallbackGetsACanvasTheSizeOfTheArea() {
        MainActor.assumeIsolated {
            var sizes: [(Int32, Int32)] = []
            let area = DrawingArea { canvas in sizes.append((canvas.width, canvas.height)) }
            area.sizeRequest(width: 120, height: 80)
            let window = gtk_window_new()!
            gtk_window_set_child(gcast(window), area.widget)
            gtk_window_present(gcast(window))
            defer { gtk_window_destroy(gcast(window)) }
            XCTAssertTrue(MainLoop.iterate(until: { !sizes.isEmpty }, timeout: 5), "a shown area is drawn")
            let (width, height) = sizes.last!
            XCTAssertGreaterThanOrEqual(width, 120)
            XCTAssertGreaterThanOrEqual(height, 80)
            XCTAssertEqual(width, area.allocatedWidth, "the canvas is as wide as the area")
            XCTAssertEqual(height, area.allocatedHeight, "and as high")
        }
    }

    func testTheCanvasFillsAndStrokesInTheColourSet() {
        MainActor.assumeIsolated {
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 20, 20)!
            defer { cairo_surface_destroy(surface) }
            let cr = cairo_create(surface)!
            let area = DrawingArea { _ in }
            let canvas = Canvas(cr: cr, area: area.widget, width: 20, height: 20)
            canvas.setColor(Color(red: 1, green: 0, blue: 0))
            canvas.rectangle(x: 0, y: 0, width: 10, height: 20)
            canvas.fill()
            canvas.setColor(Color(red: 0, green: 0, blue: 1))
            canvas.setLineWidth(2)
            canvas.setLineStyle(.round)
            canvas.moveTo(15, 0)
            canvas.lineTo(15, 20)
            canvas.stroke()
            cairo_destroy(cr)
            cairo_surface_flush(surface)

            let stride = Int(cairo_image_surface_get_stride(surface))
            let data = cairo_image_surface_get_data(surface)!
            // ARGB32 is one native-endian 32-bit word per pixel: 0xAARRGGBB.
            func pixel(_ x: Int, _ y: Int) -> UInt32 {
                UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self)
            }
            XCTAssertEqual(pixel(5, 10), 0xFFFF_0000, "the filled rectangle is opaque red")
            XCTAssertEqual(pixel(15, 10), 0xFF00_00FF, "the stroked line is opaque blue")
            XCTAssertEqual(pixel(12, 10), 0, "between them nothing is painted")
        }
    }

    func testTheCanvasReadsTheThemeColours() {
        MainActor.assumeIsolated {
            var foreground: Color?
            var accent: Color?
            var missing: Color? = Color(red: 0, green: 0, blue: 0)
            let area = DrawingArea { canvas in
                foreground = canvas.foreground
                accent = canvas.themeColor("accent_color")
                missing = canvas.themeColor("no_such_colour_anywhere")
            }
            area.sizeRequest(width: 10, height: 10)
            let window = gtk_window_new()!
            gtk_window_set_child(gcast(window), area.widget)
            gtk_window_present(gcast(window))
            defer { gtk_window_destroy(gcast(window)) }
            XCTAssertTrue(MainLoop.iterate(until: { foreground != nil }, timeout: 5))
            XCTAssertGreaterThan(foreground?.alpha ?? 0, 0.5, "the text colour is the theme's, not transparent")
            XCTAssertNotNil(accent, "libadwaita defines accent_color")
            XCTAssertNil(missing, "an unknown colour name gives nil")
        }
    }
}
