// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import ViewModels

/// Everything one device says about itself.
@MainActor
public final class DeviceDetailPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let status: StatusPage

    // MARK: Borrowed
    private weak var navigator: Navigator?

    /// Creates the page for `device`.
    public init(navigator: Navigator, device: DeviceID) {
        self.navigator = navigator
        frame = PageFrame(title: device.address, backButton: true)
        status = StatusPage(icon: "bluetooth-active-symbolic", title: device.address,
                            description: L10n.tr("Details of this device will be shown here."))
        frame.setContent(status)
    }

    public var root: Widget { frame.root }
}
