// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import ArgumentParser
import Bluetooth
import Domain
import Foundation

/// `favblue-scan trackers`: the app's tracker rule on a capture, on its own timestamps, so a
/// trip recorded with `--record` can be checked afterwards.
struct TrackersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackers",
        abstract: "List the trackers in a capture, and the alerts FavBlue's rule would raise.")

    enum Sensitivity: String, ExpressibleByArgument, CaseIterable { case high, medium, low }

    @Option(help: "The capture: btsnoop:PATH (or demo).")
    var source: String

    @Option(help: ArgumentHelp("Where the machine was: a line per change, \"2026-11-26T09:12:00Z home\".",
                               discussion: "Without it no place can be told, and time alone decides, with a higher bar (3 h across 2 scan sessions)."))
    var places: String?

    @Option(help: "How soon an alert is due: high (30 min, 2 places), medium (60 min, 3 places) or low (120 min, 4 places).")
    var sensitivity: Sensitivity = .medium

    @Option(help: "A file of your own trackers' addresses, one a line (AA:BB:CC:DD:EE:FF or AA:BB:CC:DD:EE:FF/le-random): they never alert.")
    var trusted: String?

    @Flag(help: "Print one JSON document with \"trackers\" and \"alerts\".")
    var json = false

    func run() throws {
        let parsed: ScanSource
        do { parsed = try ScanSource(parsing: source) } catch { FavBlueScan.exit(saying: FavBlueScan.explain(error)) }
        let path: String
        switch parsed {
        case .btsnoop(let file): path = file
        case .demo: path = DemoCapture.path() ?? ""
        default: FavBlueScan.exit(saying: "trackers reads a capture: give --source btsnoop:FILE (record one with favblue-scan --record FILE).")
        }
        let changes: [PlaceChange]
        do { changes = try places.map(PlaceChange.read) ?? [] } catch { FavBlueScan.exit(saying: error.message) }
        let watch = TrackerWatch(rule: TrackerRule(TrackerSensitivity(rawValue: sensitivity.rawValue) ?? .medium))
        if let trusted {
            do { watch.trusted = try Self.readTrusted(trusted) } catch { FavBlueScan.exit(saying: error.message) }
        }
        var session = 0
        var last: Date?
        var next = 0
        var place: String?
        let end = ReplayScanner(path: path, realTime: false).visitObservations { o in
            guard let reading = TrackerTable.read(manufacturerData: o.manufacturerData, serviceData: o.serviceData, services: o.services) else { return }
            if last.map({ o.timestamp.timeIntervalSince($0) >= watch.rule.sessionGapMinutes * 60 }) ?? true { session += 1 }
            last = o.timestamp
            while next < changes.count, changes[next].time <= o.timestamp {
                place = changes[next].place
                next += 1
            }
            watch.heard(o.id, reading, at: o.timestamp, place: place, session: session)
        }
        let trackers = watch.trackers.values.sorted { ($0.firstSeen, $0.key) < ($1.firstSeen, $1.key) }
        if json {
            print(TrackersReport.json(trackers: trackers, alerts: watch.alerts))
        } else {
            for line in TrackersReport.table(trackers: trackers, alerts: watch.alerts) { print(line) }
        }
        if case .failed(let failure) = end { FavBlueScan.exit(saying: FavBlueScan.explain(failure), code: 3) }
    }

    /// Reads `path`: an address a line, # for comments; each becomes the storage key the watch compares.
    static func readTrusted(_ path: String) throws(KeysFileError) -> Set<String> {
        guard let data = FileManager.default.contents(atPath: path) else { throw KeysFileError(message: "cannot read the trusted file \(path)") }
        var keys = Set<String>()
        for (number, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                let id = line.contains("/") ? try DeviceID(storageKey: line) : try DeviceID(parsing: line, kind: .leRandom)
                keys.insert(id.storageKey)
            } catch {
                throw KeysFileError(message: "\(path), line \(number + 1): \(DeviceText.terminal(line)) is not an address like AA:BB:CC:DD:EE:FF/le-random")
            }
        }
        return keys
    }
}

/// One line of a places file: from `time` on, the machine was at `place`.
struct PlaceChange {
    let time: Date
    let place: String

    /// Reads `path`, in time order; a bad line is named and nothing is guessed.
    static func read(_ path: String) throws(KeysFileError) -> [PlaceChange] {
        guard let data = FileManager.default.contents(atPath: path) else { throw KeysFileError(message: "cannot read the places file \(path)") }
        let parser = ISO8601DateFormatter()
        var changes: [PlaceChange] = []
        for (number, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let place = "\(path), line \(number + 1)"
            guard fields.count == 2, !fields[1].isEmpty else {
                throw KeysFileError(message: "\(place): expected a time and a place, like \"2026-11-26T09:12:00Z home\"")
            }
            guard let time = parser.date(from: fields[0]) else {
                throw KeysFileError(message: "\(place): \(DeviceText.terminal(fields[0])) is not a time like 2026-11-26T09:12:00Z")
            }
            if let previous = changes.last, time < previous.time {
                throw KeysFileError(message: "\(place): the times must go forward")
            }
            changes.append(PlaceChange(time: time, place: fields[1]))
        }
        return changes
    }
}
