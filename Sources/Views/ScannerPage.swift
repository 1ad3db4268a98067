// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import ViewModels

/// The Scanner: devices nearby, found as soon as the page opens.
@MainActor
public final class ScannerPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let status: StatusPage

    // MARK: Borrowed
    private weak var navigator: Navigator?

    /// Creates the page.
    public init(navigator: Navigator) {
        self.navigator = navigator
        frame = PageFrame(title: L10n.tr("Scanner"), backButton: true)
        status = StatusPage(icon: "bluetooth-acquiring-symbolic", title: L10n.tr("Scanner"),
                            description: L10n.tr("Devices nearby will be listed here."))
        frame.setContent(status)
    }

    public var root: Widget { frame.root }
}
