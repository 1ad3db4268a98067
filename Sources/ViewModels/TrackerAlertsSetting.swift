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
        return L10n.format("An alert comes once a tracker away from its owner has been with you for {} minutes at {} places.",
                           Formats.number(Int(rule.minutes)), Formats.number(rule.places))
    }

    /// How places are told here, or why time alone decides.
    public var placesNote: String {
        trackers.placesAvailable
            ? L10n.tr("Places are the networks you connect to; FavBlue keeps only a scrambled form of them, on this computer.")
            : L10n.tr("This computer cannot tell places apart, so time alone decides, with a higher bar: 3 hours across 2 scans.")
    }
}
