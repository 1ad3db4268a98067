// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The detail page's tracker section for one device: what it is, what FavBlue saw of it, what
/// to do, and Not a Threat. Empty for a device that is no tracker.
@MainActor
public final class TrackerViewModel {
    private let device: DeviceID
    private let trackers: TrackerGuard
    private let sound: TrackerSoundPlayer?
    private let now: () -> Date
    /// Whether Play Sound is under way.
    public private(set) var isPlaying = false

    public init(device: DeviceID, trackers: TrackerGuard, sound: TrackerSoundPlayer? = nil, now: @escaping () -> Date = Date.init) {
        self.device = device
        self.trackers = trackers
        self.sound = sound
        self.now = now
    }

    /// Whether Play Sound is offered: the tracker lets strangers ring it, and FavBlue can connect.
    public var canPlaySound: Bool {
        guard let status, sound != nil else { return false }
        return TrackerSoundPlayer.canPlay(status.reading.kind)
    }

    /// Rings the tracker; returns what to tell the user.
    public func playSound() async -> String {
        guard let sound, !isPlaying else { return "" }
        isPlaying = true
        defer { isPlaying = false }
        let name = status?.reading.kind.name ?? ""
        if let problem = await sound.play(on: device) { return L10n.format("{} could not play a sound. {}", name, problem) }
        return L10n.format("{} was asked to play its sound. Listen for it.", name)
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { trackers.observe(handler) }

    private var status: TrackerGuard.Status? { trackers.status(of: device) }

    /// Whether the device is a tracker's tag (the section shows only then).
    public var isTracker: Bool { status != nil }

    /// "AirTag · away from its owner".
    public var title: String { status?.reading.words ?? "" }

    /// What FavBlue saw: since when, for how long, at how many places; or why nothing is judged.
    public var seen: String {
        guard let status else { return "" }
        guard trackers.isOn else { return L10n.tr("Tracker alerts are off. Turn them on in Preferences to be warned when a tracker moves with you.") }
        guard let tracked = status.tracked else { return L10n.tr("FavBlue has only just heard it.") }
        let minutes = Int(tracked.lastSeen.timeIntervalSince(tracked.firstSeen) / 60)
        if let alert = status.alert, alert.places > 0 {
            return L10n.plural("Seen with you for {} minute since {}, at {} places.", "Seen with you for {} minutes since {}, at {} places.",
                               alert.minutes, Formats.number(alert.minutes), Formats.time(alert.firstSeen), Formats.number(alert.places))
        }
        if let alert = status.alert {
            return L10n.plural("Seen with you for {} minute since {}, across more than one scan.",
                               "Seen with you for {} minutes since {}, across more than one scan.",
                               alert.minutes, Formats.number(alert.minutes), Formats.time(alert.firstSeen))
        }
        return L10n.plural("Heard for {} minute, since {}.", "Heard for {} minutes, since {}.", minutes,
                           Formats.number(minutes), Formats.time(tracked.firstSeen))
    }

    /// When and where it was seen within the rule's day; nil before the guard marked it.
    public var timeline: TrackerTimeline? { TrackerTimeline(trackers.sightings(of: device), here: trackers.currentPlace) }

    /// Whether the rule called it out.
    public var isAlerted: Bool { status?.alert != nil }

    /// What to do, in plain words: once it has been called out, and, gentler, for any tag away
    /// from its owner; nil for one whose owner is near.
    public var advice: String? {
        if isAlerted {
            return L10n.tr("If you do not know whose it is, look for it in your bag, pockets, coat and car. If you feel unsafe, keep it and contact the police: its owner can be traced through it.")
        }
        guard let status, status.reading.mayBeFollowing else { return nil }
        return L10n.tr("Most trackers around you belong to people passing by. If this one stays with you and you do not know whose it is, look for it in your bag, pockets, coat and car. If you feel unsafe, keep it and contact the police: its owner can be traced through it.")
    }

    /// Whether Not a Threat can be offered (it is followed, and not silenced already).
    public var canSilence: Bool {
        guard let status, status.tracked != nil else { return false }
        return status.silencedUntil.map { $0 <= now() } ?? true
    }

    /// "Not a threat: no alert until 9:12 AM tomorrow".
    public var silencedNote: String? {
        guard let until = status?.silencedUntil, until > now() else { return nil }
        return L10n.format("Marked as no threat: no alerts for it until {}.", Formats.dateTime(until))
    }

    /// Not a Threat: no alert for a day.
    public func silence() { trackers.silence(device) }
}
