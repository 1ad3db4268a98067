// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// What the Scanner shows: the header's state, the list or the page that stands in for it
/// (waiting, no matches, no new devices, a problem), and each row.
extension ScannerPage {
    // MARK: Rendering

    func render() {
        let running = model.isRunning
        // The spinner says the scan is on while there is nothing to show yet. Once devices are
        // listed, their changing signals and the Stop button say it, and a spinner turning for as
        // long as the scan runs would draw the window some 60 times a second, a tenth of a core.
        // Between two auto scans nothing is heard: no spinner, the subtitle says it waits.
        let busy = running && model.state != .waiting && model.rows.isEmpty
        spinner.isVisible = busy
        spinner.isSpinning = busy
        toggle.setIcon(running ? "media-playback-stop-symbolic" : "media-playback-start-symbolic")
        let toggleName = running ? L10n.tr("Stop Scanning") : L10n.tr("Start Scanning")
        toggle.accessibleLabel(toggleName).tooltip(toggleName)
        let status = statusText()
        frame.header.titleLabel.subtitle = model.recordingPath == nil ? status : L10n.format("{} · Recording", status)
        renderRecording()
        // Preferences may change elsewhere (the Preferences window); keep the menu's marks true.
        let p = model.preferences
        sortAction?.setState(p.sortOrder.rawValue)
        favoritesOnlyAction?.setState(p.favoritesOnly)
        hideUnnamedAction?.setState(p.hideUnnamed)
        trackersOnlyAction?.setState(p.trackersOnly)
        onlyNewAction?.setState(model.onlyNewSince != nil)

        let offer = trackerAlerts?.offers(listingTrackers: model.rows.contains { $0.tracker != nil }) ?? false
        trackerBanner.show(offer ? [L10n.tr("A tracker is nearby. FavBlue can warn you when an unknown one moves with you.")] : [])
        let recovery = model.canTurnOn ? L10n.tr("Turn _On") : L10n.tr("_Try Again")
        if case .failed(let failure) = model.state, !model.rows.isEmpty {
            failureBanner.show([failure.message + " " + failure.suggestion], button: recovery)
        } else {
            failureBanner.show([])
        }
        if case .failed(let failure) = model.state, model.rows.isEmpty {
            problemExpander.isVisible = false
            switch failure {
            case .adapterOff:
                problem.title = L10n.tr("Bluetooth Is Off")
                problem.details = failure.suggestion
                problem.setIcon("bluetooth-disabled-symbolic")
            case .adapterBlocked:
                problem.title = L10n.tr("Bluetooth Is Blocked")
                problem.details = failure.suggestion
                problem.setIcon("airplane-mode-symbolic")
            case .unavailable:
                // One plain sentence, as GNOME Settings says it; the routes tried and why, under Details.
                problem.title = L10n.tr("No Bluetooth Adapter Found")
                problem.details = failure.suggestion
                problem.setIcon("bluetooth-disabled-symbolic")
                problemDetail.text = failure.message
                problemExpander.isVisible = true
            default:
                problem.title = L10n.tr("Scanning Is Not Possible")
                problem.details = failure.message + "\n\n" + failure.suggestion
                problem.setIcon("bluetooth-disabled-symbolic")
            }
            retry.setLabel(recovery)
            content.show("problem")
        } else if model.rows.isEmpty, let since = model.onlyNewSince {
            noNew.details = L10n.format("Only devices heard for the first time after {} are shown here.", Self.moment(since))
            content.show("no-new")
        } else if model.rows.isEmpty && model.hiddenCount > 0 {
            content.show("no-matches")
        } else if model.rows.isEmpty {
            content.show("waiting")
        } else {
            content.show("list")
        }
        updateHeader()
        let rows = model.rows
        let previous = shown
        shown = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) })
        list.update(rows.map(\.key), isChanged: { [shown] in previous[$0] != shown[$0] })
        renderSortAgain()
    }

    /// Offers Sort Again while the order shown is not the chosen one; a pill not yet shown
    /// waits for the pointer to leave the list, so it never lands under a click aimed at a row.
    func renderSortAgain() {
        let wanted = model.canSortAgain && content.visibleName == "list"
        guard wanted != sortAgain.isVisible else { return }
        if wanted && pointerInList { return }
        if !wanted && sortAgain.hasFocus { list.list.grabFocus() }
        sortAgain.isVisible = wanted
        if wanted {
            let order: String
            switch model.sortOrder {
            case .signal: order = L10n.tr("Put the strongest signals first")
            case .name: order = L10n.tr("Put the names in alphabetical order")
            case .lastSeen: order = L10n.tr("Put the devices heard last first")
            }
            sortAgain.tooltip(order)
        }
    }

    /// Sort Again: the rows in the chosen order, read from the top. From the keyboard, the focus
    /// goes back into the list (the pill is gone), to the device it left there.
    func sortAgainNow() {
        let fromKeyboard = sortAgain.hasFocus
        model.sortAgain()
        if !fromKeyboard { list.scrollToStart() }
    }

    /// Shows only the header controls that work now: nothing to search, sort or start while the
    /// problem page offers Try Again; in a narrow window Search and View Options share one menu.
    func updateHeader() {
        let problem = content.visibleName == "problem"
        if problem && searchBar.isSearching { searchBar.isSearching = false }
        searchBar.captureKeys(from: problem ? nil : frame.root)
        toggle.isVisible = !problem
        searchToggle.isVisible = !problem && !isNarrow
        viewMenu.isVisible = !problem && !isNarrow
        narrowMenu.isVisible = !problem && isNarrow
        primaryMenu.isVisible = !narrowMenu.isVisible
    }

    func statusText() -> String {
        let status: String
        switch model.state {
        case .idle, .paused: status = L10n.tr("Paused")
        case .waiting: status = L10n.plural("{} device · waiting for the next scan", "{} devices · waiting for the next scan", model.rows.count)
        case .starting: return L10n.tr("Starting…")
        case .scanning: status = L10n.plural("{} device", "{} devices", model.rows.count)
        case .finished: status = L10n.tr("Replay finished")
        case .failed(.adapterOff): return L10n.tr("Bluetooth off")
        case .failed(.adapterBlocked): return L10n.tr("Bluetooth blocked")
        case .failed(.unavailable): return L10n.tr("No adapter")
        case .failed: return L10n.tr("Failed")
        }
        guard model.hiddenByUserCount > 0 else { return status }
        return L10n.format("{} · {}", status, L10n.plural("{} hidden", "{} hidden", model.hiddenByUserCount))
    }

    func bind(_ row: DeviceRowView, _ key: String) {
        guard let data = shown[key] else { return }
        row.show(DeviceRowContent(title: data.title, titleIsPlaceholder: data.isUnnamed, subtitle: data.subtitle,
                                  identifier: DeviceRowContent.Identifier(data.id),
                                  signal: data.rssi.map { Self.dBm($0) }, signalIcon: Self.levelIcons[data.level],
                                  signalDescription: Self.levelNames[data.level], isFavorite: data.isFavorite,
                                  age: data.age, note: data.tracker ?? data.readings,
                                  briefNote: data.tracker == nil ? data.briefReadings : nil), key: key)
        if data.isStale { row.root.css("dim-label") } else { row.root.removeCSS("dim-label") }
    }

    private static let levelIcons = ["network-cellular-signal-none-symbolic", "network-cellular-signal-weak-symbolic",
                                     "network-cellular-signal-ok-symbolic", "network-cellular-signal-good-symbolic",
                                     "network-cellular-signal-excellent-symbolic"]
    /// Made on first use, after the translations are bound.
    private static let levelNames = [L10n.tr("Signal strength: none"), L10n.tr("Signal strength: weak"),
                                     L10n.tr("Signal strength: fair"), L10n.tr("Signal strength: good"),
                                     L10n.tr("Signal strength: excellent")]

    /// "−58 dBm" with a real minus sign, localized.
    static func dBm(_ value: Int) -> String { SignalText.dBm(value) }
}
