// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// A source of observations: a radio, a link to one, or a recording.
public protocol DeviceScanner: AnyObject, Sendable {
    /// Every observation, in arrival order; ends when the scanner stops for good.
    var observations: Feed<Observation> { get }
    /// Every state change, starting with the current state.
    var states: Feed<ScannerState> { get }
    /// Devices the source says went out of range, as it says so. Most sources never say;
    /// their devices fade when they fall silent.
    var departures: Feed<DeviceID> { get }
    /// Starts (or restarts) scanning.
    func start()
    /// Stops scanning; the scanner can be started again.
    func stop()
    /// Switches the adapter on after `ScanFailure.adapterOff`, then scans. The system may ask
    /// the user for authorisation first; a refusal ends in a failed state that says so.
    func powerOn()
}

extension DeviceScanner {
    public var departures: Feed<DeviceID> { .finished }
    /// Sources that cannot be switched off only start again.
    public func powerOn() { start() }
}
