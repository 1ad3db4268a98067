// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit

/// Desktop notifications through GApplication: the desktop's own service where there is one.
/// Clicking one runs `app.show-device` with the device, which opens its page.
@MainActor
final class AppNotifier: DesktopNotifier {
    private let application: Application

    init(application: Application) { self.application = application }

    func send(id: String, title: String, body: String, opening device: DeviceID) {
        application.sendNotification(id: id, title: title, body: body, action: "show-device", target: device.storageKey)
    }
}
