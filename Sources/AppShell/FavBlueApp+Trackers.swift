// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import HomeServices
import GtkKit
import Persistence
import SecurityToolbox
import ViewModels
import Views

extension FavBlueApp {
    /// The tracker guard, with its settings kept in GSettings and places from NetworkManager.
    /// FAVBLUE_TRACKER_SPEEDUP divides the rule's times, for the tests alone.
    static func makeTrackerGuard(live: LiveDevices, favorites: Favorites, store: TrackerSightingsRepository?, application: Application,
                                 settings: Settings?) -> TrackerGuard {
        let salt = PlaceHashing.salt(at: StoreFactory.defaultDirectory() + "/place-salt")
        let hashing = PlaceHashing(salt: salt)
        let places = NetworkManagerPlaces(hash: { hashing.hash($0) })
        let speedup = ProcessInfo.processInfo.environment["FAVBLUE_TRACKER_SPEEDUP"].flatMap(Double.init) ?? 1
        let guarded = TrackerGuard(live: live, favorites: favorites, notifier: AppNotifier(application: application), places: places, store: store,
                                   isOn: settings?.bool("tracker-alerts") ?? false,
                                   sensitivity: settings.flatMap { TrackerSensitivity(rawValue: $0.string("tracker-sensitivity")) } ?? .medium,
                                   speedup: speedup)
        guarded.onSettingsChange = { [weak guarded, weak settings] in
            guard let guarded, let settings else { return }
            settings.set("tracker-alerts", bool: guarded.isOn)
            settings.set("tracker-sensitivity", string: guarded.sensitivity.rawValue)
        }
        places.onChange = { [weak guarded] in guarded?.evaluate() }
        return guarded
    }

    /// Preferences' side of the guard, and the Scanner's one-time offer, answered once for good.
    static func trackerAlertsSetting(_ guarded: TrackerGuard, settings: Settings?) -> TrackerAlertsSetting {
        let setting = TrackerAlertsSetting(trackers: guarded, offerAnswered: settings?.bool("tracker-offer-answered") ?? false)
        setting.onOfferAnswered = { [weak settings] in settings?.set("tracker-offer-answered", bool: true) }
        return setting
    }
}
