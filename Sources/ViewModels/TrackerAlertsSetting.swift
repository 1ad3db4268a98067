// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Preferences → Trackers: the alerts on or off, their sensitivity, and what decides "places".
@MainActor
public final class TrackerAlertsSetting {
    private let trackers: TrackerGuard
    /// Whether the Scanner's one-time offer was answered (Not Now, or turned on from it).
    public private(set) var offerAnswered: Bool
    /// Keeps `offerAnswered`; the composition root sets it.
    public var onOfferAnswered: (() -> Void)?

    public init(trackers: TrackerGuard, offerAnswered: Bool = false) {
        self.trackers = trackers
        self.offerAnswered = offerAnswered
    }

    /// Whether the Scanner offers the alerts: once, while they are off, when it lists a tracker.
    public func offers(listingTrackers: Bool) -> Bool { listingTrackers && !trackers.isOn && !offerAnswered }

    /// The offer was answered: it is not made again.
    public func answerOffer() {
        guard !offerAnswered else { return }
        offerAnswered = true
        onOfferAnswered?()
    }

    public var isOn: Bool {
        get { trackers.isOn }
        set { trackers.isOn = newValue }
    }

    /// The sensitivities, as the drop-down lists them.
    public static var sensitivityNames: [String] {
        [L10n.ctx("tracker sensitivity", "High"), L10n.ctx("tracker sensitivity", "Medium"), L10n.ctx("tracker sensitivity", "Low")]
    }

    /// The chosen sensitivity, as an index into `sensitivityNames`.
    public var sensitivityIndex: Int {
        get { TrackerSensitivity.allCases.firstIndex(of: trackers.sensitivity) ?? 1 }
        set { trackers.sensitivity = TrackerSensitivity.allCases[min(max(newValue, 0), TrackerSensitivity.allCases.count - 1)] }
    }

    /// What the chosen sensitivity asks, in one sentence.
    public var sensitivityNote: String {
        let rule = TrackerRule(trackers.sensitivity)
        return L10n.plural("FavBlue warns you when a tracker whose owner is not around has stayed with you for {} minutes, in {} place.",
                           "FavBlue warns you when a tracker whose owner is not around has stayed with you for {} minutes, in {} different places.",
                           rule.places, Formats.number(Int(rule.minutes)), Formats.number(rule.places))
    }

    /// How places are told here, or why time alone decides.
    public var placesNote: String {
        trackers.placesAvailable
            ? L10n.tr("It tells places apart by the networks you connect to, and keeps only a scrambled form of them, on this computer.")
            : L10n.tr("This computer cannot tell where you are, so FavBlue waits longer instead: until a tracker has stayed with you for 3 hours, seen in 2 separate scans.")
    }
}
