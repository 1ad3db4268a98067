// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

final class WidgetWrapperTests: GtkTestCase {
    func testASpinButtonValueRoundTripsAndStaysInItsRange() {
        MainActor.assumeIsolated {
            let spin = SpinButton(min: -127, max: 0, step: 1, accessibleName: "Minimum")
            var changes: [Int] = []
            spin.onChanged { changes.append($0) }
            spin.value = -60
            XCTAssertEqual(spin.value, -60)
            spin.value = 40
            XCTAssertEqual(spin.value, 0, "values above the range are clamped")
            XCTAssertEqual(changes, [-60, 0], "each change is reported once with the new value")
        }
    }

    func testAFigureIsWrittenAsTheFormatSaysAndReadBackAsTyped() {
        MainActor.assumeIsolated {
            // A German-style format: grouping points and a true minus sign.
            let format: (Int) -> String = { value in
                let digits = String(abs(value)).reversed().enumerated().map { ($0.offset > 0 && $0.offset % 3 == 0 ? "." : "") + String($0.element) }
                return (value < 0 ? "\u{2212}" : "") + String(digits.joined().reversed())
            }
            let parse: (String) -> Int? = { Int($0.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: "\u{2212}", with: "-")) }
            let spin = SpinButton(min: -127, max: 1_000_000, step: 1, accessibleName: "Messages")
            spin.writesNumbers(format, reading: parse, widest: 1_000_000)
            spin.value = 10_000
            XCTAssertEqual(String(cString: gtk_editable_get_text(OpaquePointer(spin.object))), "10.000")
            spin.value = -90
            XCTAssertEqual(String(cString: gtk_editable_get_text(OpaquePointer(spin.object))), "\u{2212}90")
            for (typed, read) in [("\u{2212}70", -70), ("-65", -65), ("25.000", 25_000), ("2500", 2500)] {
                gtk_editable_set_text(OpaquePointer(spin.object), typed)
                gtk_spin_button_update(OpaquePointer(spin.object))
                XCTAssertEqual(spin.value, read, "typed \(typed)")
            }
            XCTAssertEqual(String(cString: gtk_editable_get_text(OpaquePointer(spin.object))), "2.500", "written again as the format says")
            gtk_editable_set_text(OpaquePointer(spin.object), "loud")
            gtk_spin_button_update(OpaquePointer(spin.object))
            XCTAssertEqual(spin.value, 2500, "text that is no number leaves the value alone")
            XCTAssertGreaterThanOrEqual(gtk_editable_get_width_chars(OpaquePointer(spin.object)), 9, "room for 1.000.000")
        }
    }

    /// A tooltip set on a widget placed nowhere yet is set while it is hidden, which skips GTK's
    /// pointer query (X round trips that held the first window back). What the user gets is the
    /// same: the tooltip, and the widget shown, or hidden as it was.
    func testATooltipIsKeptAndLeavesTheWidgetShownOrHiddenAsItWas() {
        MainActor.assumeIsolated {
            let loose = Label("Add").tooltip("Add a device")
            XCTAssertEqual(gtk_widget_get_tooltip_text(loose.widget).map { String(cString: $0) }, "Add a device")
            XCTAssertNotEqual(gtk_widget_get_has_tooltip(loose.widget), 0)
            XCTAssertTrue(loose.isVisible, "a shown widget stays shown")
            let hidden = Label("Remove")
            hidden.isVisible = false
            hidden.tooltip("Remove the device")
            XCTAssertFalse(hidden.isVisible, "a hidden widget stays hidden")
            XCTAssertEqual(gtk_widget_get_tooltip_text(hidden.widget).map { String(cString: $0) }, "Remove the device")
            let box = Box(vertical: false)
            let placed = Label("Rename")
            box.append(placed)
            placed.tooltip("Rename the device")
            XCTAssertTrue(placed.isVisible)
            XCTAssertEqual(gtk_widget_get_tooltip_text(placed.widget).map { String(cString: $0) }, "Rename the device")
        }
    }

    func testAFlowBoxRemovesEveryChild() {
        MainActor.assumeIsolated {
            let box = FlowBox(maxPerLine: 20, columnSpacing: 6, rowSpacing: 6)
            for text in ["LE", "Connectable", "Apple, Inc."] { box.append(Label(text)) }
            XCTAssertEqual(box.count, 3)
            XCTAssertNotNil(gtk_widget_get_first_child(box.widget))
            box.removeAll()
            XCTAssertEqual(box.count, 0)
            XCTAssertNil(gtk_widget_get_first_child(box.widget), "no child is left in GTK either")
        }
    }

    func testASpinnerTurnsOnlyWhenAsked() {
        MainActor.assumeIsolated {
            let spinner = Spinner()
            XCTAssertFalse(spinner.isSpinning)
            spinner.isSpinning = true
            XCTAssertTrue(spinner.isSpinning)
        }
    }

    func testLettersMatchWhateverTheirCase() {
        XCTAssertEqual(Key.letter("R").lowercased, Key.letter("r"))
        XCTAssertEqual(Key.letter("r").lowercased, Key.letter("r"))
        XCTAssertNotEqual(Key.letter("f"), Key.letter("r"))
        XCTAssertEqual(Key.f5.lowercased, Key.f5, "keys without case stay as they are")
    }

    func testAToggleActionFlipsItsStateOnActivation() {
        MainActor.assumeIsolated {
            let box = Box(vertical: true)
            let group = ActionGroup(on: box, prefix: "test")
            var seen: [Bool] = []
            let action = group.addToggle("flag", initial: false) { seen.append($0) }
            XCTAssertTrue(box.activateAction("test.flag"))
            XCTAssertTrue(action.boolState)
            action.setState(false)
            XCTAssertEqual(seen, [true], "setState does not run the handler")
            XCTAssertFalse(action.boolState)
            XCTAssertFalse(box.activateAction("test.missing"), "an unknown action is not activated")
        }
    }

    func testATimeoutRunsOnceAndACancelledOneNever() {
        MainActor.assumeIsolated {
            var fired = 0
            var cancelledFired = false
            let timeout = MainLoop.after(seconds: 0.05) { fired += 1 }
            let cancelled = MainLoop.after(seconds: 0.05) { cancelledFired = true }
            cancelled.cancel()
            XCTAssertTrue(MainLoop.iterate(until: { fired > 0 }, timeout: 5))
            MainLoop.iterate(until: { false }, timeout: 0.1)
            XCTAssertEqual(fired, 1)
            XCTAssertFalse(timeout.isPending)
            XCTAssertFalse(cancelledFired)
        }
    }
}

/// The session bus is found as GLib finds it, so FavBlue knows when asking for one would start one.
final class SessionBusTests: XCTestCase {
    func testABusIsItsAddressOrTheRuntimeDirectorysSocketAndNothingElse() throws {
        XCTAssertTrue(SessionBus.exists(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
        XCTAssertFalse(SessionBus.exists([:]), "no address and no runtime directory: GLib would autolaunch")
        XCTAssertFalse(SessionBus.exists(["DBUS_SESSION_BUS_ADDRESS": ""]))
        XCTAssertFalse(SessionBus.exists(["DBUS_SESSION_BUS_ADDRESS": "disabled:"]), "what FavBlue sets where there is none")
        let runtime = NSTemporaryDirectory() + "favblue-bus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        XCTAssertFalse(SessionBus.exists(["XDG_RUNTIME_DIR": runtime]), "a runtime directory without a bus socket")
        FileManager.default.createFile(atPath: runtime + "/bus", contents: Data())
        XCTAssertFalse(SessionBus.exists(["XDG_RUNTIME_DIR": runtime]), "a file named bus is no socket")
        try FileManager.default.removeItem(atPath: runtime + "/bus")
        let socket = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((runtime + "/bus").utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.prefix(raw.count).enumerated() { raw[i] = UInt8(bitPattern: byte) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertTrue(SessionBus.exists(["XDG_RUNTIME_DIR": runtime]), "the runtime directory's bus socket")
    }
}
