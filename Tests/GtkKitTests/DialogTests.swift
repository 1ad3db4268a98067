// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

final class DialogTests: GtkTestCase {
    func testTheAboutWindowIsDestroyedWhenClosed() {
        MainActor.assumeIsolated {
            var destroyed = false
            do {
                let about = AboutDialog(parent: nil).applicationName("FavBlue").version("0.1.0").licenseGPL3()
                about.onDestroy { destroyed = true }
                about.present()
                XCTAssertTrue(MainLoop.iterate(until: { about.isVisible }, timeout: 5))
                about.close()
            }
            XCTAssertTrue(MainLoop.iterate(until: { destroyed }, timeout: 5), "closing the About window destroys it")
        }
    }

    func testThePreferencesWindowKeepsItsControlsUntilItIsClosed() {
        MainActor.assumeIsolated {
            weak var control: SpinButton?
            weak var dialog: PreferencesDialog?
            do {
                let spin = SpinButton(min: 0, max: 10, step: 1, accessibleName: "Seconds")
                control = spin
                let row = ActionRow(title: "Scan Length", subtitle: "Seconds each scan lasts", control: spin)
                XCTAssertEqual(row.title, "Scan Length")
                XCTAssertEqual(row.subtitle, "Seconds each scan lasts")
                let page = PreferencesPage(title: "Scanner", icon: "bluetooth-active-symbolic")
                page.add(PreferencesGroup(title: "Scanning", rows: [row]))
                let window = PreferencesDialog(parent: nil, title: "Preferences")
                window.add(page)
                window.present()
                dialog = window
            }
            MainLoop.iterate(until: { false }, timeout: 0.2)
            XCTAssertNotNil(control, "an open window keeps its rows' controls, so their handlers keep working")
            dialog?.close()
            XCTAssertTrue(MainLoop.iterate(until: { control == nil && dialog == nil }, timeout: 5),
                          "closing the window releases the dialog and its controls")
        }
    }
}
