// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import ViewModels

/// The home page: the user's favorite devices, or a placeholder when there are none.
@MainActor
public final class FavoritesPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let empty: StatusPage

    // MARK: Borrowed
    private weak var navigator: Navigator?

    /// Creates the page.
    public init(navigator: Navigator) {
        self.navigator = navigator
        frame = PageFrame(title: L10n.tr("FavBlue"), backButton: false)
        // Icon-only, so the header fits a 360 px window in every language.
        let add = Button(icon: "list-add-symbolic", accessibleName: L10n.tr("Add New Devices"))
        add.action("win.add-devices")
        frame.header.packStart(add)
        frame.header.packEnd(PrimaryMenu.make())

        empty = StatusPage(icon: "favblue-heart-outline-symbolic", title: L10n.tr("No favorites yet"),
                           description: L10n.tr("Devices you add from the scanner appear here under the names you give them."))
        let emptyAdd = Button(label: L10n.tr("Add New Devices"))
        emptyAdd.css("pill", "suggested-action").align(GTK_ALIGN_CENTER, GTK_ALIGN_CENTER)
        emptyAdd.action("win.add-devices")
        empty.setChild(emptyAdd)
        frame.setContent(empty)
    }

    public var root: Widget { frame.root }
}
