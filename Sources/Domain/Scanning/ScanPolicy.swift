// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// How FavBlue scans, as the user set it in Preferences; kept across restarts.
public struct ScanSettings: Equatable, Sendable {
    /// Seconds unseen before a device fades, and before it goes.
    public var fadeAfterSeconds = 30
    public var removeAfterSeconds = 60
    /// Auto Scan: scan for `scanWindowSeconds` every `periodSeconds` instead of continuously.
    public var periodic = false
    public var periodSeconds = 60
    public var scanWindowSeconds = 10
    /// Scan quietly in Auto Scan's rhythm while the Scanner is not open, so Favorites knows what is nearby.
    public var backgroundScan = false

    public init() {}

    /// The mode of the Scanner's own scan.
    public var scanMode: ScanMode { periodic ? periodicMode : .continuous }

    /// The quiet scan while the Scanner is closed: Auto Scan's window and interval, or none.
    public var backgroundScanMode: ScanMode? { backgroundScan ? periodicMode : nil }

    private var periodicMode: ScanMode {
        let window = max(1, min(scanWindowSeconds, periodSeconds))
        return .periodic(windowSeconds: Double(window), intervalSeconds: Double(max(periodSeconds, window)))
    }
}

/// When and how FavBlue scans: the one owner of that decision.
///
/// The Scanner page scans in the foreground (continuously, or in Auto Scan's rhythm) while it is
/// open; otherwise the quiet background scan runs if it is on, else nothing. A stop the user asks
/// for in the Scanner holds until the Scanner is left. Settings changed in Preferences apply at
/// once: a running Scanner scan restarts in its new mode, and fading times change in place.
/// LiveDevices carries the scans out; this decides which.
@MainActor
public final class ScanPolicy {
    // MARK: State
    /// The user's settings; `onChange` hears every change, to keep them.
    public var settings: ScanSettings {
        didSet {
            guard settings != oldValue else { return }
            apply()
            // Only the page's own scan follows Auto Scan; the background one follows `backgroundScanMode`.
            if settings.scanMode != oldValue.scanMode, live.isForeground, live.isStarted { scanInForeground() }
            onChange?(settings)
            observers.notify()
        }
    }
    public var onChange: (@MainActor (ScanSettings) -> Void)?

    // MARK: Borrowed
    private let live: LiveDevices

    // MARK: Owned
    private let observers = ChangeObservers()

    /// Decides the scans `live` runs, as `settings` say.
    public init(live: LiveDevices, settings: ScanSettings = ScanSettings()) {
        self.live = live
        self.settings = settings
        apply()
    }

    /// Calls `handler` after every change of the settings.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    // MARK: Intents

    /// The Scanner is open (or asks again after a failure): scan in its mode, with a fresh scanner.
    public func scanInForeground() { live.start(mode: settings.scanMode) }

    /// The Scanner is left: the background scan takes over if it is on, else scanning stops.
    public func leaveForeground() { live.release() }

    /// The user stopped the scan; it stays stopped until the Scanner is left.
    public func stop() { live.stop() }

    /// Switches the adapter on (the system may ask first), then scans again.
    public func powerOn() { live.powerOn() }

    private func apply() {
        live.fadeAfter = Double(settings.fadeAfterSeconds)
        live.removeAfter = Double(settings.removeAfterSeconds)
        live.backgroundMode = settings.backgroundScanMode
    }
}
