// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Several sources at once (this computer's adapter, a board in the hall, a broker's gateways),
/// as one scanner: each report carries the name of the source that heard it, and a source that
/// fails does not stop the others. It is scanning while any source is; it fails only when
/// every source has failed, with each one's reason.
public final class MultiScanner: DeviceScanner, SourceStatusReporting, @unchecked Sendable {
    /// One source and its name; a source that names its own rooms (a broker) keeps its names.
    public struct Part: Sendable {
        public let name: String
        public let scanner: DeviceScanner

        public init(name: String, scanner: DeviceScanner) {
            self.name = name
            self.scanner = scanner
        }
    }

    private let parts: [Part]
    private let log: @Sendable (String) -> Void
    private let streams = ScanStreams()
    private let departureSink = Feed<DeviceID>()
    private let lock = NSLock()
    private var partStates: [ScannerState]
    private var lastHeard: [Date?]
    private var forwarding: [Task<Void, Never>] = []

    /// `ignoring` names gateways whose reports are this computer's own, published back to a
    /// broker it also reads (Share with the House): heard once, here, not twice.
    public init(_ parts: [Part], ignoring: Set<String> = [], log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.parts = parts
        self.log = log
        partStates = Array(repeating: .idle, count: parts.count)
        lastHeard = Array(repeating: nil, count: parts.count)
        for (i, part) in parts.enumerated() {
            let streams = self.streams, sink = departureSink
            let observations = part.scanner.observations, states = part.scanner.states, departures = part.scanner.departures
            let names = part.scanner is SourceStatusReporting
            forwarding += [
                Task.detached { [weak self] in
                    for await o in observations {
                        var o = o
                        if !names { o.source = part.name }
                        if let source = o.source, ignoring.contains(source) { continue }
                        self?.heard(i, at: o.timestamp)
                        streams.emit(o)
                    }
                },
                Task.detached { for await id in departures { sink.yield(id) } },
                Task.detached { [weak self] in for await state in states { self?.changed(i, to: state) } },
            ]
        }
    }

    deinit {
        forwarding.forEach { $0.cancel() }
        departureSink.finish()
    }

    public var observations: Feed<Observation> { streams.observations }
    public var states: Feed<ScannerState> { streams.states }
    public var departures: Feed<DeviceID> { departureSink }

    public func start() {
        streams.set(.starting)
        parts.forEach { $0.scanner.start() }
    }

    public func stop() {
        parts.forEach { $0.scanner.stop() }
        streams.set(.paused)
    }

    public func powerOn() { parts.forEach { $0.scanner.powerOn() } }

    public var sourceStatuses: [SourceStatus] {
        lock.withLock {
            parts.enumerated().flatMap { i, part -> [SourceStatus] in
                if let reporting = part.scanner as? SourceStatusReporting {
                    // A broker: itself under the name given, then the gateways it heard from.
                    let own = reporting.sourceStatuses
                    guard let broker = own.first else { return [] }
                    return [SourceStatus(name: part.name, state: broker.state, lastHeard: broker.lastHeard, skipped: broker.skipped,
                                         messages: broker.messages, retrying: broker.retrying)]
                        + own.dropFirst().map { SourceStatus(name: $0.name, state: $0.state, lastHeard: $0.lastHeard, via: part.name) }
                }
                return [SourceStatus(name: part.name, state: partStates[i], lastHeard: lastHeard[i])]
            }
        }
    }

    private func heard(_ i: Int, at time: Date) {
        lock.withLock { lastHeard[i] = time }
    }

    private func changed(_ i: Int, to state: ScannerState) {
        let all: [ScannerState] = lock.withLock {
            partStates[i] = state
            return partStates
        }
        if case .failed(let failure) = state { log("\(parts[i].name): \(failure.message)") }
        streams.set(Self.combined(all, names: parts.map(\.name)))
    }

    /// Scanning while any source scans; failed only when all have, saying each one's reason.
    static func combined(_ states: [ScannerState], names: [String]) -> ScannerState {
        if states.contains(.scanning) { return .scanning }
        if states.contains(.starting) { return .starting }
        if states.contains(.waiting) { return .waiting }
        let failures = states.compactMap { state -> ScanFailure? in if case .failed(let f) = state { return f } else { return nil } }
        if !failures.isEmpty, failures.count == states.count {
            if failures.count == 1 { return .failed(failures[0]) }
            let each = zip(names, failures).map { L10n.format("{}: {}", $0, $1.detail) }.joined(separator: "; ")
            return .failed(.unavailable(each))
        }
        if states.contains(.paused) { return .paused }
        if !states.isEmpty, states.allSatisfy({ $0 == .finished }) { return .finished }
        return .idle
    }
}
