// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

/// Text handed to GtkKit as a String is shown as that text, never read as Pango markup:
/// a device named `R&D <Lab>` must not blank its row, and one named `<b>x</b>` must not be bold.
final class PlainTextTests: GtkTestCase {
    static let hostile = ["R&D <Lab>", "<b>bold</b>", "lone < here", "<span foreground=\"red\">red</span>", "a &amp; b"]

    /// Every label under `root`, depth first.
    private func labels(under root: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var texts: [String] = []
        if let label = gtk_label_cast(root) { texts.append(String(cString: gtk_label_get_text(label))) }
        var child = gtk_widget_get_first_child(root)
        while let c = child {
            texts += labels(under: c)
            child = gtk_widget_get_next_sibling(c)
        }
        return texts
    }

    private func gtk_label_cast(_ widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                   gtk_label_get_type()) != 0 ? OpaquePointer(widget) : nil
    }

    @MainActor
    private func assertShown(_ text: String, in widget: Widget, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let shown = labels(under: widget.widget)
        XCTAssertTrue(shown.contains(text), "\(what) shows \(text) as text: \(shown)", file: file, line: line)
    }

    func testRowsGroupsAndStatusPagesShowTextAsItIs() {
        MainActor.assumeIsolated {
            for text in Self.hostile {
                let property = PropertyRow(title: text)
                property.value = text + " value"
                assertShown(text, in: property, "a property row's title")
                assertShown(text + " value", in: property, "a property row's value")
                XCTAssertEqual(property.value, text + " value")

                let row = ActionRow(title: text, subtitle: text + " sub", control: Switch(accessibleName: "On"))
                assertShown(text, in: row, "an action row's title")
                assertShown(text + " sub", in: row, "an action row's subtitle")

                // The GATT browser's service rows carry a device's user descriptions and names.
                let expander = ExpanderRow(title: text, subtitle: text + " sub")
                assertShown(text, in: expander, "an expander row's title")
                assertShown(text + " sub", in: expander, "an expander row's subtitle")

                let group = PreferencesGroup(title: text)
                group.details = text + " details"
                assertShown(text, in: group, "a group's title")
                assertShown(text + " details", in: group, "a group's description")
                XCTAssertEqual(group.details, text + " details")

                let status = StatusPage(icon: "dialog-information-symbolic", title: text, description: text + " description")
                assertShown(text, in: status, "a status page's title")
                assertShown(text + " description", in: status, "a status page's description")
                XCTAssertEqual(status.details, text + " description", "reads back what was set, not its escaped form")

                let title = AdwWindowTitleWidget(title: text, subtitle: text + " subtitle")
                assertShown(text, in: title, "a window title")
                assertShown(text + " subtitle", in: title, "a window subtitle")

                assertShown(text, in: Label(text), "a label")
            }
        }
    }

    func testADialogShowsHeadingAndBodyAsText() {
        MainActor.assumeIsolated {
            let window = Window(application: Application(id: "io.github.favblue.Tests.PlainText\(getpid())"))
            for text in Self.hostile {
                let dialog = MessageDialog(parent: window, heading: text, body: text + " body")
                assertShown(text, in: dialog, "a dialog's heading")
                assertShown(text + " body", in: dialog, "a dialog's body")
            }
            window.close()
        }
    }

    func testMarkupIsShownOnlyThroughTheExplicitCall() {
        MainActor.assumeIsolated {
            let status = StatusPage(icon: "dialog-information-symbolic", title: "T")
            status.setDetailsMarkup("<b>ours</b>")
            assertShown("ours", in: status, "our own markup")
            let label = Label()
            label.setMarkup("<i>ours</i>")
            assertShown("ours", in: label, "our own markup")
        }
    }
}
