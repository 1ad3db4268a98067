// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Plays back a btsnoop capture as if a controller were reporting it.
public final class ReplayScanner: DeviceScanner, @unchecked Sendable {
    private let path: String
    private let realTime: Bool
    private let streams = ScanStreams()
    private let thread = ScanThread(name: "favblue-replay")
    /// Undecodable events met so far (each skipped, the replay goes on).
    public private(set) var malformedEvents = 0

    /// Replays `path`, paced like the original when `realTime`, else as fast as possible.
    public init(path: String, realTime: Bool) {
        self.path = path
        self.realTime = realTime
    }

    public var observations: AsyncStream<Observation> { streams.observations }
    public var states: AsyncStream<ScannerState> { streams.states }

    public func start() {
        thread.start { [self] in run() }
    }

    public func stop() { thread.requestStop() }

    private var isCancelled: Bool { thread.shouldStop }

    private func run() {
        streams.set(.starting)
        let reader: BtsnoopReader
        do {
            reader = try BtsnoopReader(path: path)
        } catch {
            streams.set(.failed(.badSource(error.message)))
            streams.finish()
            return
        }
        streams.set(.scanning)
        var first: Date?
        let started = Date()
        var stopped = false
        var truncation: BtsnoopError?
        reader.forEachPacket({ packet in
            guard !stopped else { return }
            if isCancelled { stopped = true; return }
            guard packet.type == .event, packet.received else { return }
            if realTime {
                let origin = first ?? packet.timestamp
                first = origin
                let due = started.addingTimeInterval(packet.timestamp.timeIntervalSince(origin))
                let wait = due.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: min(wait, 5)) }
            }
            do {
                let time = realTime ? Date() : packet.timestamp
                for observation in try ObservationDecoder.observations(inEvent: packet.bytes[...], at: time) {
                    streams.emit(observation)
                }
            } catch {
                malformedEvents += 1
            }
        }, truncated: { truncation = $0 })
        if let truncation, !stopped {
            // Everything before the cut was delivered; say what happened to the rest.
            streams.set(.failed(.badSource(truncation.message)))
        } else {
            streams.set(stopped ? .paused : .finished)
        }
        thread.finished()
        if !stopped { streams.finish() }
    }
}
