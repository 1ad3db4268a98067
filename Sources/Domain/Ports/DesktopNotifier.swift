// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Sends desktop notifications; clicking one opens the page of the device it names.
@MainActor
public protocol DesktopNotifier: AnyObject {
    /// Shows a notification under `id`, replacing any earlier one with that id. `title` is plain
    /// text; `body` must not carry device text, since some notification servers read it as markup.
    func send(id: String, title: String, body: String, opening device: DeviceID)
}
