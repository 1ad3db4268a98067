// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// A source of observations: a radio, a link to one, or a recording.
public protocol DeviceScanner: AnyObject, Sendable {
    /// Every observation, in arrival order; ends when the scanner stops for good.
    var observations: AsyncStream<Observation> { get }
    /// Every state change, starting with the current state.
    var states: AsyncStream<ScannerState> { get }
    /// Starts (or restarts) scanning.
    func start()
    /// Stops scanning; the scanner can be started again.
    func stop()
}
