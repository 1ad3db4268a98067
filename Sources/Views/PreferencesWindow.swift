// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// Preferences: auto scan, and when the Scanner hides, fades and removes devices.
@MainActor
public enum PreferencesWindow {
    /// Opens the window over `parent`; changes apply (and are kept) at once.
    public static func present(parent: UnsafeMutablePointer<GtkWindow>, scanner: ScannerViewModel) {
        let window = adw_preferences_window_new()!
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = gcast(UnsafeMutableRawPointer(window))
        gtk_window_set_transient_for(gtkWindow, parent)
        gtk_window_set_modal(gtkWindow, 1)
        gtk_window_set_title(gtkWindow, L10n.tr("Preferences"))
        adw_preferences_window_set_search_enabled(gcast(UnsafeMutableRawPointer(window)), 0)
        let page = adw_preferences_page_new()!
        adw_preferences_page_set_title(gcast(UnsafeMutableRawPointer(page)), L10n.tr("Scanner"))
        adw_preferences_page_set_icon_name(gcast(UnsafeMutableRawPointer(page)), "bluetooth-active-symbolic")

        let p = scanner.preferences
        let autoScan = Switch(accessibleName: L10n.tr("Auto Scan"))
        autoScan.isOn = p.periodic
        let interval = SpinButton(min: 15, max: 3600, step: 5, accessibleName: L10n.tr("Scan Interval in seconds"))
        interval.value = p.periodSeconds
        let length = SpinButton(min: 2, max: 600, step: 1, accessibleName: L10n.tr("Scan Length in seconds"))
        length.value = p.scanWindowSeconds
        let scanning = group(L10n.tr("Scanning"), [
            row(L10n.tr("Auto Scan"), L10n.tr("Scan for a short time every so often instead of all the time, to save power"), autoScan, activates: true),
            row(L10n.tr("Scan Interval"), L10n.tr("Seconds from the start of one scan to the next"), interval),
            row(L10n.tr("Scan Length"), L10n.tr("Seconds each scan lasts"), length),
        ])
        let syncSensitivity = { [weak autoScan, weak interval, weak length] in
            let on = autoScan?.isOn ?? false
            interval?.isSensitive = on
            length?.isSensitive = on
        }
        syncSensitivity()

        let minimum = SpinButton(min: -127, max: 0, step: 1, accessibleName: L10n.tr("Minimum Signal in dBm"))
        minimum.value = p.minimumRSSI
        let fade = SpinButton(min: 5, max: 3600, step: 5, accessibleName: L10n.tr("Fade After in seconds"))
        fade.value = p.fadeAfterSeconds
        let remove = SpinButton(min: 5, max: 3600, step: 5, accessibleName: L10n.tr("Remove After in seconds"))
        remove.value = p.removeAfterSeconds
        let list = group(L10n.tr("Device List"), [
            row(L10n.tr("Minimum Signal"), L10n.tr("Hide devices weaker than this many dBm; −127 shows all"), minimum),
            row(L10n.tr("Fade After"), L10n.tr("Seconds unheard before a device is dimmed"), fade),
            row(L10n.tr("Remove After"), L10n.tr("Seconds unheard before a device leaves the list"), remove),
        ])
        adw_preferences_page_add(gcast(UnsafeMutableRawPointer(page)), gcast(UnsafeMutableRawPointer(scanning)))
        adw_preferences_page_add(gcast(UnsafeMutableRawPointer(page)), gcast(UnsafeMutableRawPointer(list)))
        adw_preferences_window_add(gcast(UnsafeMutableRawPointer(window)), gcast(UnsafeMutableRawPointer(page)))

        autoScan.onToggled { [weak scanner] on in
            syncSensitivity()
            scanner?.preferences.periodic = on
        }
        interval.onChanged { [weak scanner] in scanner?.preferences.periodSeconds = $0 }
        length.onChanged { [weak scanner] in scanner?.preferences.scanWindowSeconds = $0 }
        minimum.onChanged { [weak scanner] in scanner?.preferences.minimumRSSI = $0 }
        fade.onChanged { [weak scanner] in scanner?.preferences.fadeAfterSeconds = $0 }
        remove.onChanged { [weak scanner] in scanner?.preferences.removeAfterSeconds = $0 }
        // The wrappers live exactly as long as the window: its destroy releases them.
        let wrappers: [Widget] = [autoScan, interval, length, minimum, fade, remove]
        Signals.connect(UnsafeMutableRawPointer(window), "destroy") { _ in _ = wrappers.count }
        gtk_window_present(gtkWindow)
    }

    private static func group(_ title: String, _ rows: [UnsafeMutablePointer<GtkWidget>]) -> UnsafeMutablePointer<GtkWidget> {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(gcast(UnsafeMutableRawPointer(group)), title)
        for row in rows { adw_preferences_group_add(gcast(UnsafeMutableRawPointer(group)), row) }
        return group
    }

    /// An AdwActionRow with `control` at its end; `activates` lets a click on the row flip it.
    private static func row(_ title: String, _ subtitle: String, _ control: Widget, activates: Bool = false) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(gcast(UnsafeMutableRawPointer(row)), title)
        adw_action_row_set_subtitle(gcast(UnsafeMutableRawPointer(row)), subtitle)
        adw_action_row_add_suffix(gcast(UnsafeMutableRawPointer(row)), control.widget)
        if activates { adw_action_row_set_activatable_widget(gcast(UnsafeMutableRawPointer(row)), control.widget) }
        return row
    }
}
