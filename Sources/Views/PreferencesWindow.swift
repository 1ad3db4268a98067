// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// Preferences, one page per area as the HIG asks: the Scanner (scanning, the list, hidden
/// devices), Favorites, Trackers, Connections (services and chat) and Sources.
@MainActor
public enum PreferencesWindow {
    /// The pages' names, to open the window on one.
    public enum Area {
        public static let scanner = "scanner"
        public static let favorites = "favorites"
        public static let trackers = "trackers"
        public static let connections = "connections"
        public static let sources = "sources"
        public static let adapter = "adapter"
    }

    /// Opens the window over `parent`, on the page named `showing` (else the Scanner's);
    /// changes apply (and are kept) at once.
    public static func present(parent: Window, scanSettings: ScanSettingsViewModel, scanner: ScannerViewModel,
                               hidden: HiddenDevicesViewModel?,
                               chat: ChatRetentionSetting? = nil, nicknames: NicknameSharing? = nil,
                               services: DeviceServicesViewModel? = nil, trackers: TrackerAlertsSetting? = nil,
                               sources: SourcesViewModel? = nil, adapter: PeripheralViewModel? = nil, showing: String? = nil) {
        let window = PreferencesDialog(parent: parent, title: L10n.tr("Preferences"))
        let page = PreferencesPage(title: L10n.ctx("Preferences page", "Scanner"), icon: "bluetooth-active-symbolic", name: Area.scanner)

        let p = scanSettings.settings
        let autoScan = Switch(accessibleName: L10n.tr("Auto Scan"))
        autoScan.isOn = p.periodic
        let background = Switch(accessibleName: L10n.tr("Scan in the Background"))
        background.isOn = p.backgroundScan
        let interval = SpinButton.figures(min: 15, max: 3600, step: 5, accessibleName: L10n.tr("Scan Interval in seconds"))
        interval.value = p.periodSeconds
        let length = SpinButton.figures(min: 2, max: 600, step: 1, accessibleName: L10n.tr("Scan Length in seconds"))
        length.value = p.scanWindowSeconds
        let scanning = PreferencesGroup(title: L10n.ctx("Preferences group", "Scanning"), rows: [
            ActionRow(title: L10n.tr("Auto Scan"), subtitle: L10n.tr("Scan for a short time every so often instead of all the time, to save power"),
                      control: autoScan, activates: true),
            ActionRow(title: L10n.tr("Scan in the Background"),
                      subtitle: L10n.tr("Scan now and then while the Scanner is closed, so Favorites shows which devices are nearby"),
                      control: background, activates: true),
            ActionRow(title: L10n.tr("Scan Interval"), subtitle: L10n.tr("Seconds from the start of one scan to the next"), control: interval),
            ActionRow(title: L10n.tr("Scan Length"), subtitle: L10n.tr("Seconds each scan lasts"), control: length),
        ])
        // Interval and length pace both Auto Scan and the background scan.
        let syncSensitivity = { [weak autoScan, weak background, weak interval, weak length] in
            let on = (autoScan?.isOn ?? false) || (background?.isOn ?? false)
            interval?.isSensitive = on
            length?.isSensitive = on
        }
        syncSensitivity()

        // A switch says "show every device"; the figure is only for when weak ones are hidden.
        let hideWeak = Switch(accessibleName: L10n.tr("Hide Weak Devices"))
        let showsAll = ScannerPreferences.showsAll
        hideWeak.isOn = scanner.minimumRSSI > showsAll
        let minimum = SpinButton.figures(min: Double(showsAll + 1), max: 0, step: 1, accessibleName: L10n.tr("Minimum Signal in dBm"))
        minimum.value = hideWeak.isOn ? scanner.minimumRSSI : ScannerPreferences.suggestedMinimum
        minimum.isSensitive = hideWeak.isOn
        let fade = SpinButton.figures(min: 5, max: 3600, step: 5, accessibleName: L10n.tr("Fade After in seconds"))
        fade.value = p.fadeAfterSeconds
        let remove = SpinButton.figures(min: 5, max: 3600, step: 5, accessibleName: L10n.tr("Remove After in seconds"))
        remove.value = p.removeAfterSeconds
        let list = PreferencesGroup(title: L10n.tr("Device List"), rows: [
            ActionRow(title: L10n.tr("Hide Weak Devices"), subtitle: L10n.tr("Leave out devices whose signal is below the minimum"),
                      control: hideWeak, activates: true),
            ActionRow(title: L10n.tr("Minimum Signal"), subtitle: L10n.tr("The weakest signal shown, in dBm"), control: minimum),
            ActionRow(title: L10n.tr("Fade After"), subtitle: L10n.tr("Seconds unheard before a device is dimmed"), control: fade),
            ActionRow(title: L10n.tr("Remove After"), subtitle: L10n.tr("Seconds unheard before a device leaves the list"), control: remove),
        ])
        page.add(scanning)
        page.add(list)
        if let hidden { page.add(hiddenDevices(hidden)) }
        window.add(page)
        if let nicknames {
            let favorites = PreferencesPage(title: L10n.ctx("Preferences page", "Favorites"), icon: "emblem-favorite-symbolic", name: Area.favorites)
            favorites.add(nicknameGroup(nicknames))
            window.add(favorites)
        }
        var trackerRows: PreferencesGroup?
        if let trackers {
            let page = PreferencesPage(title: L10n.ctx("Preferences page", "Trackers"), icon: "find-location-symbolic", name: Area.trackers)
            let group = trackerGroup(trackers, background: background)
            page.add(group)
            window.add(page)
            trackerRows = group
        }
        if services != nil || chat != nil {
            let connections = PreferencesPage(title: L10n.ctx("Preferences page", "Connections"), icon: "network-transmit-receive-symbolic",
                                              name: Area.connections)
            if let services { connections.add(servicesGroup(services)) }
            if let chat { connections.add(chatGroup(chat)) }
            window.add(connections)
        }
        var pages: [String: PreferencesPage] = [:]
        if let sources {
            let made = SourcesPage.make(sources, parent: window.asParent)
            pages[Area.sources] = made
            window.add(made)
        }
        if let adapter {
            let made = AdapterPage.make(adapter)
            pages[Area.adapter] = made
            window.add(made)
        }
        if let showing { window.showPage(named: showing) }

        autoScan.onToggled { [weak scanSettings] on in
            syncSensitivity()
            scanSettings?.settings.periodic = on
        }
        background.onToggled { [weak scanSettings] on in
            syncSensitivity()
            scanSettings?.settings.backgroundScan = on
        }
        interval.onChanged { [weak scanSettings] in scanSettings?.settings.periodSeconds = $0 }
        length.onChanged { [weak scanSettings] in scanSettings?.settings.scanWindowSeconds = $0 }
        minimum.onChanged { [weak scanner] in scanner?.minimumRSSI = $0 }
        hideWeak.onToggled { [weak scanner, weak minimum] on in
            minimum?.isSensitive = on
            scanner?.minimumRSSI = on ? (minimum?.value ?? ScannerPreferences.suggestedMinimum) : showsAll
        }
        fade.onChanged { [weak scanSettings] in scanSettings?.settings.fadeAfterSeconds = $0 }
        remove.onChanged { [weak scanSettings] in scanSettings?.settings.removeAfterSeconds = $0 }
        // The dialog keeps its pages, rows and controls alive until GTK destroys it.
        window.present()
        // The first setting of the page on show has the focus, not the page switcher above it
        // (nor a row of a page that is not on show, where the focus was lost and Escape did nothing).
        if let showing, let page = pages[showing] {
            _ = page.focusFirst()
        } else {
            ((showing == Area.trackers ? trackerRows : nil) ?? scanning).allRows.first?.grabFocus()
        }
    }

    /// Preferences → Favorites: nicknames shared with the rest of the desktop (BlueZ only).
    private static func nicknameGroup(_ sharing: NicknameSharing) -> PreferencesGroup {
        let share = Switch(accessibleName: L10n.tr("Share Nicknames"))
        share.isOn = sharing.isOn
        share.isSensitive = sharing.isAvailable
        // The page's title heads it; a group title would say it twice.
        let group = PreferencesGroup(title: "", rows: [
            ActionRow(title: L10n.tr("Share Nicknames"),
                      subtitle: L10n.tr("Name devices by their nicknames in GNOME Settings and other apps too"),
                      control: share, activates: true),
        ])
        group.details = sharing.isAvailable
            ? L10n.tr("Clearing a nickname gives the device its own name back.")
            : L10n.tr("Nicknames can be shared only while FavBlue reaches Bluetooth through the system’s Bluetooth service.")
        share.onToggled { [weak sharing] on in sharing?.isOn = on }
        return group
    }

    /// Preferences → Trackers: alerts for trackers moving with you, how soon, and the background
    /// scan they need to protect (offered, with its cost, while it is off).
    private static func trackerGroup(_ setting: TrackerAlertsSetting, background: Switch) -> PreferencesGroup {
        let alerts = Switch(accessibleName: L10n.tr("Tracker Alerts"))
        alerts.isOn = setting.isOn
        let sensitivity = DropDown(TrackerAlertsSetting.sensitivityNames, accessibleName: L10n.tr("Sensitivity"))
        sensitivity.selected = setting.sensitivityIndex
        let scanToo = Button(label: L10n.tr("Turn On"))
        scanToo.accessibleLabel(L10n.tr("Scan in the Background Too"))
        scanToo.align(.center, .center)
        let offer = ActionRow(title: L10n.tr("Scan in the Background Too"),
                              subtitle: L10n.tr("Alerts protect only while FavBlue scans. A short scan every minute costs some battery."),
                              control: scanToo)
        // The page's title heads it; a group title would say it twice.
        let group = PreferencesGroup(title: "", rows: [
            ActionRow(title: L10n.tr("Tracker Alerts"),
                      subtitle: L10n.tr("Warn when an unknown tracker, away from its owner, moves with you"), control: alerts, activates: true),
            ActionRow(title: L10n.tr("Sensitivity"), subtitle: L10n.tr("Higher warns sooner, but also more often about a tracker that is not following you"), control: sensitivity),
            offer,
        ])
        let sync = { [weak alerts, weak background, weak offer, weak sensitivity, weak group] in
            let on = alerts?.isOn ?? false
            offer?.isVisible = on && !(background?.isOn ?? false)
            sensitivity?.isSensitive = on
            group?.details = setting.sensitivityNote + " " + setting.placesNote
        }
        sync()
        alerts.onToggled { on in
            setting.isOn = on
            sync()
        }
        sensitivity.onSelected { index in
            setting.sensitivityIndex = index
            sync()
        }
        background.onToggled { _ in sync() }
        scanToo.onClicked { [weak background] in
            background?.isOn = true
            // The offer's row goes with the button: the focus moves to the switch it turned on.
            background?.grabFocus()
            sync()
        }
        return group
    }

    /// Preferences → Services: whether a connected device's page shows UUIDs, handles and descriptors.
    private static func servicesGroup(_ services: DeviceServicesViewModel) -> PreferencesGroup {
        let identifiers = Switch(accessibleName: L10n.tr("Show Identifiers"))
        identifiers.isOn = services.showsIdentifiers
        identifiers.onToggled { [weak services] on in services?.showsIdentifiers = on }
        return PreferencesGroup(title: L10n.tr("Services"), rows: [
            ActionRow(title: L10n.tr("Show Identifiers"),
                      subtitle: L10n.tr("List the UUIDs, handles and descriptors of a connected device’s services"),
                      control: identifiers, activates: true),
        ])
    }

    /// Preferences → Chat: how much history each device keeps (applied when FavBlue starts).
    private static func chatGroup(_ setting: ChatRetentionSetting) -> PreferencesGroup {
        let current = setting.value
        let count = SpinButton.figures(min: 100, max: 1_000_000, step: 100, accessibleName: L10n.tr("Messages Kept per Device"))
        count.value = current.maxPerDevice
        // Keeping every message is a switch, not a magic 0.
        let deleteOld = Switch(accessibleName: L10n.tr("Delete Old Messages"))
        deleteOld.isOn = current.days != nil
        let days = SpinButton.figures(min: 1, max: 3650, step: 1, accessibleName: L10n.tr("Delete Messages After in days"))
        days.value = current.days ?? 365
        days.isSensitive = deleteOld.isOn
        let group = PreferencesGroup(title: L10n.tr("Chat"), rows: [
            ActionRow(title: L10n.tr("Messages Kept per Device"), subtitle: L10n.tr("The oldest messages of a device go beyond this many"),
                      control: count),
            ActionRow(title: L10n.tr("Delete Old Messages"), subtitle: L10n.tr("Off keeps every message"),
                      control: deleteOld, activates: true),
            ActionRow(title: L10n.tr("Delete Messages After"), subtitle: L10n.tr("Days a message is kept"), control: days),
        ])
        group.details = L10n.tr("Old messages are deleted the next time FavBlue starts.")
        count.onChanged { value in
            var retention = setting.value
            retention.maxPerDevice = value
            setting.save(retention)
        }
        days.onChanged { value in
            var retention = setting.value
            retention.days = value
            setting.save(retention)
        }
        deleteOld.onToggled { [weak days] on in
            days?.isSensitive = on
            var retention = setting.value
            retention.days = on ? (days?.value ?? 365) : nil
            setting.save(retention)
        }
        return group
    }

    /// Preferences → Hidden Devices: each with Unhide; the list follows changes made elsewhere.
    private static func hiddenDevices(_ hidden: HiddenDevicesViewModel) -> PreferencesGroup {
        let group = PreferencesGroup(title: L10n.tr("Hidden Devices"))
        let fill = { [weak group, weak hidden] in
            guard let group, let hidden else { return }
            for row in group.allRows { group.remove(row) }
            let rows = hidden.rows
            group.details = rows.isEmpty ? L10n.tr("No devices are hidden. Hide one from its menu in the Scanner or from its details.")
                                         : L10n.tr("Hidden devices are left out of the Scanner.")
            for device in rows {
                let unhide = Button(label: L10n.tr("Unhide"))
                unhide.accessibleLabel(L10n.format("Unhide {}", device.title)).align(.center, .center)
                unhide.onClicked { [weak hidden] in hidden?.unhide(device.id) }
                group.add(ActionRow(title: device.title, subtitle: device.subtitle, control: unhide))
            }
        }
        fill()
        let token = hidden.observe { fill() }
        // The observation lasts as long as the group.
        group.keep(token)
        return group
    }
}

/// How much chat history is kept, read and written by whoever stores settings.
@MainActor
public struct ChatRetentionSetting {
    /// The current retention.
    public var value: ChatRetention { load() }
    private let load: () -> ChatRetention
    /// Keeps a changed retention.
    public let save: (ChatRetention) -> Void

    /// Creates a setting over `load` and `save`.
    public init(load: @escaping () -> ChatRetention, save: @escaping (ChatRetention) -> Void) {
        self.load = load
        self.save = save
    }
}

extension SpinButton {
    /// A spin button that writes its figure as the locale does ("10.000" in German, "−100"
    /// with a true minus sign) and reads it back as typed, with or without the grouping.
    static func figures(min: Double, max: Double, step: Double, accessibleName: String) -> SpinButton {
        let button = SpinButton(min: min, max: max, step: step, accessibleName: accessibleName)
        let widest = [Int(min), Int(max)].max { Formats.number($0).count < Formats.number($1).count } ?? Int(max)
        button.writesNumbers(Formats.number, reading: Formats.wholeNumber, widest: widest)
        return button
    }
}
