// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// A favorite's desktop notifications: when it comes near, when it leaves. Both off until
/// turned on, per device.
@MainActor
final class DeviceAlertsSection {
    let root = Box(vertical: true, spacing: 6)
    private let list = PropertyList(accessibleName: L10n.tr("Notifications"))
    private let arrive = Switch(accessibleName: L10n.tr("Notify When Nearby"))
    private let leave = Switch(accessibleName: L10n.tr("Notify When It Leaves"))
    private let model: DeviceDetailViewModel
    /// Set while the switches are set from the model, so that is no user's toggle.
    private var rendering = false
    /// What the switches show: the page renders several times a second, and must not undo a
    /// toggle whose write is still under way.
    private var shown: PresenceAlerts?

    init(model: DeviceDetailViewModel) {
        self.model = model
        let heading = Label(L10n.tr("Notifications")).xalign(0)
        heading.css("heading")
        list.append(ActionRow(title: L10n.tr("Notify When Nearby"),
                              subtitle: L10n.tr("A desktop notification when it comes into range"), control: arrive, activates: true))
        list.append(ActionRow(title: L10n.tr("Notify When It Leaves"),
                              subtitle: L10n.tr("A desktop notification when it goes out of range"), control: leave, activates: true))
        root.append(heading, list)
        for control in [arrive, leave] {
            control.onToggled { [weak self] _ in
                guard let self, !self.rendering else { return }
                var alerts: PresenceAlerts = []
                if self.arrive.isOn { alerts.insert(.arrive) }
                if self.leave.isOn { alerts.insert(.leave) }
                self.shown = alerts
                Task { await self.model.setAlerts(alerts) }
            }
        }
        render()
    }

    func render() {
        root.isVisible = model.isFavorite
        let alerts = model.alerts
        guard alerts != shown, !model.isSavingAlerts else { return }
        shown = alerts
        rendering = true
        arrive.isOn = alerts.contains(.arrive)
        leave.isOn = alerts.contains(.leave)
        rendering = false
    }
}
