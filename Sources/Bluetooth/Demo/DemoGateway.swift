// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The demo's second room: a gateway in the kitchen, as OpenMQTTGateway or Theengs Gateway
/// would report what it hears, so Try the Demo shows rooms, Heard By and a device only another
/// room can reach. It hears the freezer better than this computer does, and a fridge this
/// computer does not hear at all.
///
/// Like a broker's gateway it listens for as long as the app is open, apart from this
/// computer's scans; its reports go the way a gateway's go once they arrive: the raw
/// advertising, decoded here, named by the room in `MultiScanner`.
public final class DemoGateway: DeviceScanner, @unchecked Sendable {
    private let streams = ScanStreams()
    private let interval: Double
    private let sealer: PayloadSealer?
    private let queue = DispatchQueue(label: "favblue-demo-gateway")
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?

    /// A gateway that reports every `interval` seconds once started; `sealer` seals the freezer's frames.
    public init(interval: Double = 2, sealer: PayloadSealer?) {
        self.interval = interval
        self.sealer = sealer
    }

    deinit { stop() }

    public var observations: Feed<Observation> { streams.observations }
    public var states: Feed<ScannerState> { streams.states }

    public func start() {
        streams.set(.scanning)
        lock.withLock {
            guard timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: interval, leeway: .milliseconds(50))
            timer.setEventHandler { [weak self] in self?.report() }
            timer.resume()
            self.timer = timer
        }
    }

    public func stop() {
        lock.withLock {
            timer?.cancel()
            timer = nil
        }
        streams.set(.paused)
    }

    private func report() {
        let time = Date()
        for event in DemoSensors.advertisingEvents(at: time, sealer: sealer, of: DemoSensors.kitchen) {
            guard let observations = try? ObservationDecoder.observations(inEvent: event[...], at: time) else { continue }
            for observation in observations { streams.emitWhileScanning(observation) }
        }
    }
}
