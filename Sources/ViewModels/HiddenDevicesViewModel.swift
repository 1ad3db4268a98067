// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The pages' window on Domain's `HiddenDevices`: Preferences → Hidden Devices lists them,
/// and the Scanner and detail pages hide one with Undo.
@MainActor
public final class HiddenDevicesViewModel {
    /// One hidden device, for Preferences → Hidden Devices.
    public struct Row: Equatable, Sendable {
        public let id: DeviceID
        /// The name it had when hidden, else its address.
        public let title: String
        /// "AA:BB:… · LE random".
        public let subtitle: String
    }

    // MARK: Borrowed
    private let devices: HiddenDevices

    /// A window on `devices`.
    public init(devices: HiddenDevices) { self.devices = devices }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { devices.observe(handler) }

    /// Hidden devices by name, for Preferences.
    public var rows: [Row] {
        devices.hidden.values.map { device in
            Row(id: device.id, title: DisplayName.of(id: device.id, nickname: nil, advertisedName: device.name), subtitle: device.id.identifierLine)
        }.sorted { DisplayName.sortKey($0.title) < DisplayName.sortKey($1.title) || ($0.title == $1.title && $0.id < $1.id) }
    }

    public func isHidden(_ id: DeviceID) -> Bool { devices.isHidden(id) }

    /// Whether Hide Device is offered: never for a favorite.
    public func canHide(_ id: DeviceID) -> Bool { devices.canHide(id) }

    /// Hides `id`, keeping `name` (nil when it has none) for Preferences, and says so with an
    /// undo through `toast`, calling it `title` as the page does; false, with nothing said, for a
    /// favorite. The one Hide with Undo of every page.
    @discardableResult
    public func hide(_ id: DeviceID, name: String?, title: String,
                     toast: (_ text: String, _ undo: @escaping @MainActor () -> Void) -> Void) -> Bool {
        guard devices.hide(id, name: name) else { return false }
        toast(L10n.format("“{}” is hidden", DeviceText.isolated(title)), { [weak devices] in devices?.undoHide() })
        return true
    }

    /// Shows `id` again.
    public func unhide(_ id: DeviceID) { devices.unhide(id) }
}
