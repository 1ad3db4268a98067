// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Plays back a btsnoop capture as if a controller were reporting it. Events become
/// observations through ObservationDecoder, the same path the live scanner uses.
public final class ReplayScanner: DeviceScanner, @unchecked Sendable {
    private let path: String
    private let realTime: Bool
    /// Hears each replayed event, as a live session's recorder hears the controller's.
    private let recorder: PacketRecorder?
    private let streams: ScanStreams
    /// Plays the capture again from its start each time it ends (the demo, while it is shown).
    private let loops: Bool
    private let thread = ScanThread(name: "favblue-replay")
    /// Undecodable events met so far (each skipped, the replay goes on).
    public private(set) var malformedEvents = 0

    /// Replays `path`, paced like the original when `realTime`, else as fast as possible;
    /// `record` is handed every event replayed, stamped with the time it is replayed at.
    public convenience init(path: String, realTime: Bool, record: PacketRecorder? = nil) {
        self.init(path: path, realTime: realTime, record: record, streams: ScanStreams())
    }

    /// Replays into `streams`, which the demo shares with its own device.
    init(path: String, realTime: Bool, record: PacketRecorder?, streams: ScanStreams, loops: Bool = false) {
        self.path = path
        self.realTime = realTime
        self.recorder = record
        self.streams = streams
        self.loops = loops
    }

    /// The capture's reports, as observations.
    public var observations: Feed<Observation> { streams.observations }
    /// The replay's state, starting with the current one.
    public var states: Feed<ScannerState> { streams.states }

    /// Starts the replay on its own thread, unless one is running.
    public func start() {
        thread.start { [self] in run() }
    }

    /// Pauses the replay at the next packet.
    public func stop() { thread.requestStop() }

    private var isCancelled: Bool { thread.shouldStop }

    private func run() {
        streams.set(.starting)
        var fragments = AdvertisingFragments()
        var end: ScannerState
        repeat {
            end = replay(scanning: { streams.set(.scanning) }) { [streams] (packet, time) throws(DecodeError) in
                for observation in try ObservationDecoder.observations(inEvent: Array(packet)[...], at: time, fragments: &fragments) {
                    streams.emit(observation)
                }
            }
        } while loops && end == .finished && !isCancelled
        streams.set(end)
        thread.finished()
        if end != .paused { streams.finish() }
    }

    /// Reads the whole capture on the calling thread straight into a device table, without
    /// pacing or streams: what a tool that only prints the table needs. Returns how the replay
    /// ended: finished, paused by `stop()`, or failed with the reason (a truncated capture keeps
    /// everything before the cut).
    public func table(resolver: PrivateAddressResolver? = nil, perAddress: Bool = false,
                      sensorKeys: SensorKeys? = nil) -> (DeviceTable, ScannerState) {
        var table = DeviceTable(resolver: resolver, perAddress: perAddress)
        table.sensorKeys = sensorKeys
        let end = replay(scanning: {}) { (packet, time) throws(DecodeError) in
            try table.add(event: packet, at: time)
        }
        table.finish()
        return (table, end)
    }

    /// Reads the whole capture on the calling thread and hands `visit` each report, stamped with
    /// the capture's own time, for tools that judge what was heard when (`favblue-scan trackers`).
    public func visitObservations(_ visit: (Observation) -> Void) -> ScannerState {
        var fragments = AdvertisingFragments()
        return replay(scanning: {}) { (packet, time) throws(DecodeError) in
            for o in try ObservationDecoder.observations(inEvent: Array(packet)[...], at: time, fragments: &fragments) { visit(o) }
        }
    }

    /// Hands every received event to `handle`, paced like the original when `realTime`;
    /// an event `handle` cannot decode is counted and skipped. Returns the state to end in.
    private func replay(scanning: () -> Void,
                        _ handle: (UnsafeRawBufferPointer, Date) throws(DecodeError) -> Void) -> ScannerState {
        let reader: BtsnoopReader
        do {
            reader = try BtsnoopReader(path: path)
        } catch {
            return .failed(.badSource(error.message))
        }
        scanning()
        var first: Date?
        let started = Date()
        var stopped = false
        var truncation: BtsnoopError?
        reader.visitRawPackets({ packet in
            // Stopping reads no further: a long capture is not walked to its end for nothing.
            if isCancelled { stopped = true; return false }
            guard packet.type == .event, packet.received else { return true }
            if realTime {
                let origin = first ?? packet.timestamp
                first = origin
                let due = started.addingTimeInterval(packet.timestamp.timeIntervalSince(origin))
                let wait = due.timeIntervalSinceNow
                if wait > 0 { thread.pause(min(wait, 5)) }
            }
            let time = realTime ? Date() : packet.timestamp
            recorder?.write(type: .event, bytes: Array(packet.bytes), received: true, at: time)
            do {
                try handle(packet.bytes, time)
            } catch {
                malformedEvents += 1
            }
            return true
        }, truncated: { truncation = $0 })
        // Everything before a cut was delivered; the failure says what happened to the rest.
        if let truncation, !stopped { return .failed(.badSource(truncation.message)) }
        return stopped ? .paused : .finished
    }
}
