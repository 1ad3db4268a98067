// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Watches the live devices for trackers moving with you and tells the desktop when the rule
/// says one is. Off until the user turns it on; favorites never alert (Trust This Tracker makes
/// one a favorite); Not a Threat silences a tracker for a day.
@MainActor
public final class TrackerGuard {
    /// What the detail page says of one tracker.
    public struct Status: Equatable {
        public let reading: TrackerReading
        public let tracked: TrackerWatch.Tracked?
        public let alert: TrackerAlert?
        public let silencedUntil: Date?
    }

    public var isOn: Bool {
        didSet {
            guard isOn != oldValue else { return }
            onSettingsChange?()
            observers.notify()
        }
    }

    public var sensitivity: TrackerSensitivity {
        didSet {
            guard sensitivity != oldValue else { return }
            watch.rule = rule(for: sensitivity)
            onSettingsChange?()
            observers.notify()
        }
    }

    /// Keeps `isOn` and `sensitivity`; the composition root sets it.
    public var onSettingsChange: (() -> Void)?
    /// Whether the rule can count places here; without them, time alone decides.
    public var placesAvailable: Bool { places?.isAvailable ?? false }

    private let live: LiveDevices
    private let favorites: Favorites
    private let notifier: DesktopNotifier
    private let places: PlaceSource?
    private let speedup: Double
    private let now: () -> Date
    private let watch: TrackerWatch
    private let observers = ChangeObservers()
    private var tokens: [ObservationToken] = []
    private var session = 0
    private var wasRunning = false
    private var silenced: [String: Date] = [:]
    /// Each device's report last judged: a device not heard since has nothing new to say.
    private var judged: [DeviceID: Date] = [:]

    /// `speedup` divides the rule's times, for tests that cannot wait an hour; 1 everywhere else.
    public init(live: LiveDevices, favorites: Favorites, notifier: DesktopNotifier, places: PlaceSource?,
                isOn: Bool = false, sensitivity: TrackerSensitivity = .medium, speedup: Double = 1, now: @escaping () -> Date = Date.init) {
        self.live = live
        self.favorites = favorites
        self.notifier = notifier
        self.places = places
        self.isOn = isOn
        self.sensitivity = sensitivity
        self.speedup = max(speedup, 1)
        self.now = now
        watch = TrackerWatch(rule: TrackerRule(sensitivity).faster(by: max(speedup, 1)))
        tokens.append(live.observe { [weak self] _ in self?.evaluate() })
        tokens.append(favorites.observe { [weak self] in self?.syncTrusted() })
        syncTrusted()
    }

    private func rule(for sensitivity: TrackerSensitivity) -> TrackerRule { TrackerRule(sensitivity).faster(by: speedup) }

    /// Calls `handler` after every change of the settings or of what is known of a tracker.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Takes in what the live devices say now.
    public func evaluate() {
        let running = live.isRunning
        if running && !wasRunning { session += 1 }
        wasRunning = running
        guard isOn, running || live.isReplayOver else { return }
        let place = places?.current
        var changed = false
        let devices = live.all
        for (id, device) in devices where judged[id] != device.lastSeen {
            judged[id] = device.lastSeen
            guard let reading = TrackerTable.read(device.advertised), reading.kind.isTag else { continue }
            let before = watch.key(of: id).flatMap { watch.lastSeen(of: $0) }
            if let alert = watch.heard(id, reading, at: device.lastSeen, place: place, session: session) {
                tell(alert, device: id)
                changed = true
            }
            if before != watch.key(of: id).flatMap({ watch.lastSeen(of: $0) }) { changed = true }
        }
        if judged.count > devices.count + 1_000 { judged = judged.filter { devices[$0.key] != nil } }
        if changed { observers.notify() }
    }

    /// Favorites never alert: the watch's trusted set follows them.
    private func syncTrusted() {
        watch.trusted = Set(favorites.snapshot.keys.map(\.storageKey))
    }

    /// What is known of `id` as a tracker; nil when it is none.
    public func status(of id: DeviceID) -> Status? {
        guard let reading = live[id].flatMap({ TrackerTable.read($0.advertised) }), reading.kind.isTag else { return nil }
        let key = watch.key(of: id)
        return Status(reading: reading, tracked: key.flatMap { watch.tracked($0) },
                      alert: key.flatMap { k in watch.alerts.last { $0.tracker == k } }, silencedUntil: key.flatMap { silenced[$0] })
    }

    /// Not a Threat: no alert for `id`'s tracker for a day.
    public func silence(_ id: DeviceID) {
        guard let key = watch.key(of: id) else { return }
        let until = now().addingTimeInterval(24 * 3600 / speedup)
        silenced[key] = until
        watch.silence(key, until: until)
        observers.notify()
    }

    private func tell(_ alert: TrackerAlert, device: DeviceID) {
        let minutes = max(alert.minutes, 1)
        notifier.send(id: "tracker-" + alert.tracker,
                      title: L10n.plural("{} has been moving with you for {} minute", "{} has been moving with you for {} minutes",
                                         minutes, Self.article(alert.kind), Formats.number(minutes)),
                      body: L10n.tr("Open FavBlue to see where it was seen and what you can do."), opening: device)
    }

    /// "An AirTag", "A SmartTag": the alert's subject.
    static func article(_ kind: TrackerKind) -> String {
        switch kind {
        case .airTag: return L10n.tr("An AirTag")
        case .airPods: return L10n.tr("A pair of AirPods")
        case .findMyAccessory: return L10n.tr("A Find My accessory")
        case .smartTag: return L10n.tr("A SmartTag")
        case .tile: return L10n.tr("A Tile")
        case .chipolo: return L10n.tr("A Chipolo")
        case .pebblebee: return L10n.tr("A Pebblebee")
        case .findMyDeviceTag: return L10n.tr("A Find My Device tag")
        case .dultTag, .appleDevice: return L10n.tr("A location tracker")
        }
    }
}
