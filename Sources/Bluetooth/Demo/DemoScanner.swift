// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The `demo` source: the shipped capture replayed as `ReplayScanner` does, joined by
/// `DemoChatDevice`, `DemoBoard`, `DemoTracker` and `DemoSensors`, which advertise about once a second while the replay scans.
///
/// Both write into one set of streams, so the state is the replay's own: the demo device is
/// heard from `.scanning` on and falls silent when the scan is stopped (`.paused`), when the
/// capture has played out (`.finished`, where every device heard stays listed) or when it fails.
/// Its advertisements take the path real ones take: an HCI event, `ObservationDecoder`, and
/// the recorder, so a recording of a demo session holds it too.
public final class DemoScanner: DeviceScanner, @unchecked Sendable {
    // MARK: Owned
    private let streams = ScanStreams()
    private let replay: ReplayScanner
    private let recorder: PacketRecorder?
    /// Seconds between two advertisements.
    private let interval: Double
    private let queue = DispatchQueue(label: "favblue-demo-device")
    /// Seals the demo freezer's frames; without it the freezer is not heard.
    private let sealer: PayloadSealer?

    // MARK: State, guarded by `lock`
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?

    /// Replays `capture` (paced like the original when `realTime`) with the demo device
    /// advertising every `interval` seconds; `record` hears both, as it would a controller.
    /// With `loops`, the capture plays again from its start whenever it ends, so the demo goes
    /// on for as long as it is shown.
    public init(capture: String, realTime: Bool, record: PacketRecorder? = nil, interval: Double = 1, loops: Bool = false,
                sealer: PayloadSealer? = nil) {
        replay = ReplayScanner(path: capture, realTime: realTime, record: record, streams: streams, loops: loops)
        recorder = record
        self.interval = interval
        self.sealer = sealer
        streams.didChange = { [weak self] state in self?.follow(state) }
    }

    deinit { silence() }

    /// The capture's reports and the demo device's, as observations.
    public var observations: Feed<Observation> { streams.observations }
    /// The replay's state, starting with the current one.
    public var states: Feed<ScannerState> { streams.states }

    /// Starts the replay; the demo device is heard as soon as it scans.
    public func start() { replay.start() }

    /// Pauses the replay and silences the demo device at once.
    public func stop() {
        silence()
        replay.stop()
    }

    /// Runs on the replay's thread right after each change of state was told, so the first
    /// advertisement comes before the capture's first report, even in a fast replay.
    private func follow(_ state: ScannerState) {
        guard state == .scanning else {
            silence()
            return
        }
        advertise()
        lock.withLock {
            guard timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            // A real advertiser's interval wanders a little too (Core v5.4, Vol 6, Part B, §4.4.2.2.1).
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
            timer.setEventHandler { [weak self] in self?.advertise() }
            timer.resume()
            self.timer = timer
        }
    }

    private func silence() {
        lock.withLock {
            timer?.cancel()
            timer = nil
        }
    }

    /// One advertisement of each demo device, heard only while scanning.
    private func advertise() {
        let time = Date()
        for event in [DemoChatDevice.advertisingEvent(rssi: DemoChatDevice.rssi()), DemoBoard.advertisingEvent(rssi: DemoBoard.rssi()),
                      DemoTracker.advertisingEvent()]
            + DemoSensors.advertisingEvents(at: time, sealer: sealer) {
            guard let observations = try? ObservationDecoder.observations(inEvent: event[...], at: time) else { continue }
            for observation in observations where streams.emitWhileScanning(observation) {
                recorder?.write(type: .event, bytes: event, received: true, at: time)
            }
        }
    }
}
