// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// A sensor's readings over time: the last hour from memory for any sensor, the last day and
/// week from the store for a favorite.
extension DeviceDetailViewModel {
    /// How far back the plots go.
    public enum ReadingsPeriod: Int, CaseIterable, Sendable {
        case hour, day, week

        var seconds: TimeInterval { [3600, 86_400, 7 * 86_400][rawValue] }

        /// "Last Hour", as the period's choice reads.
        public var title: String {
            switch self {
            case .hour: return L10n.tr("Last Hour")
            case .day: return L10n.tr("Last Day")
            case .week: return L10n.tr("Last Week")
            }
        }

        /// "over the last hour", as a plot's description says it.
        var span: String {
            switch self {
            case .hour: return L10n.tr("over the last hour")
            case .day: return L10n.tr("over the last day")
            case .week: return L10n.tr("over the last week")
            }
        }
    }

    /// One reading's line: its name, its figures (oldest first), its scale and its words.
    public struct ReadingPlot: Equatable {
        public let key: String
        public let name: String
        public let figures: [Double]
        /// Where each figure falls across the plot's time axis, 0 at its left edge, 1 at now.
        public let positions: [Double]
        public let scale: DeviceServicesViewModel.Scale
        /// The moments under the plot's left edge, its middle and its right edge.
        public let time: PlotAxis.TimeAxis
        public let summary: String
    }

    /// The periods offered: all three for a favorite, whose readings are kept; the hour for others.
    public var readingsPeriods: [ReadingsPeriod] { isFavorite && live.readingsStore != nil ? ReadingsPeriod.allCases : [.hour] }

    /// Shows `period`; the day and the week are read from the store.
    public func showReadings(over period: ReadingsPeriod) {
        readingsPeriod = readingsPeriods.contains(period) ? period : .hour
        storedReadings = nil
        loadStoredReadings()
        observersNotify()
    }

    /// The plots of the period shown, at most four, in the order the page shows readings.
    public func readingPlots(now: Date = Date()) -> [ReadingPlot] {
        let period = readingsPeriods.contains(readingsPeriod) ? readingsPeriod : .hour
        let samples: [SensorSample]
        if period == .hour {
            samples = live.recentReadings(of: id)
        } else {
            if let stored = storedReadings, now.timeIntervalSince(stored.loaded) > 60 { loadStoredReadings() }
            // What the store has, then the finer last hour since its newest row.
            let stored = storedReadings?.samples ?? []
            let newest = stored.last?.time ?? .distantPast
            samples = stored + live.recentReadings(of: id).filter { $0.time > newest }
        }
        let current = Dictionary(sensor?.named ?? [], uniquingKeysWith: { first, _ in first })
        var keys: [String] = []
        // States are the timeline's, not lines.
        for sample in samples where !keys.contains(sample.key) && Quantity.named(sample.key).kind == .measurement {
            keys.append(sample.key)
        }
        keys.sort { Self.order($0) < Self.order($1) }
        return keys.prefix(4).compactMap { key in
            let line = samples.filter { $0.key == key }
            let points = Self.buckets(line, from: now.addingTimeInterval(-period.seconds), to: now)
            let figures = points.map(\.value)
            guard figures.count >= 2, let low = figures.min(), let high = figures.max(), let last = line.last?.value,
                  let first = points.first?.time else { return nil }
            let time = PlotAxis.time(now: now, covering: now.timeIntervalSince(first), period: period.seconds)
            let reading = current[key]
            let quantity = reading?.quantity ?? Quantity.named(key)
            let decimals = reading?.decimals ?? quantity.info?.decimals ?? 1
            func said(_ value: Double) -> String { ReadingText.value(SensorReading(quantity, value, decimals: decimals)) }
            let name = Self.caption(key, quantity)
            // Translators: "Temperature over the last hour: lowest 20.1 °C, highest 21.4 °C, last 21.2 °C".
            let summary = L10n.format("{} {}: lowest {}, highest {}, last {}", name, period.span, said(low), said(high), said(last))
            // The edges say the axis, which a steady battery at 81 % does not make "81 % / 81 %".
            let axis = PlotAxis.range(low: low, high: high, of: quantity)
            func edge(_ value: Double) -> String {
                ReadingText.value(SensorReading(quantity, value, decimals: value == value.rounded() ? 0 : decimals))
            }
            return ReadingPlot(key: key, name: name, figures: figures, positions: points.map { time.position(of: $0.time) },
                               scale: DeviceServicesViewModel.Scale(highest: edge(axis.upperBound), lowest: edge(axis.lowerBound),
                                                                    last: said(last), axis: axis),
                               time: time, summary: summary)
        }
    }

    /// A favorite's states as they changed over the period shown, newest first, at most
    /// `limit`: "9:12:05 AM · Door open"; empty for a sensor that sends none.
    public func stateTimeline(now: Date = Date(), limit: Int = 8) -> [String] {
        let period = readingsPeriods.contains(readingsPeriod) ? readingsPeriod : .hour
        let start = now.addingTimeInterval(-period.seconds)
        let recent = live.recentStateChanges(of: id)
        var changes = recent
        if period != .hour {
            // The store's, then this session's since its newest.
            let stored = (storedReadings?.samples ?? []).filter { Quantity.named($0.key).kind != .measurement }
            let newest = stored.last?.time ?? .distantPast
            changes = stored + recent.filter { $0.time > newest }
        }
        let day = Calendar.current
        return changes.filter { $0.time >= start }.suffix(limit).reversed().map { change in
            let quantity = Quantity.named(change.key)
            let when = day.isDate(change.time, inSameDayAs: now) ? Formats.timeWithSeconds(change.time) : Formats.dateTime(change.time)
            let what = ReadingText.text(SensorReading(quantity, change.value))
            let slot = ReadingKey(parsing: change.key).slot
            // Translators: a time and what happened then, "9:12:05 AM · Door open".
            return L10n.format("{} · {}", when, slot.map { L10n.format("{} ({})", what, Formats.number($0)) } ?? what)
        }
    }

    /// "Temperature", "Temperature 2" for a second probe, "Acceleration (X axis)".
    static func caption(_ key: String, _ quantity: Quantity) -> String {
        guard let number = ReadingKey(parsing: key).slot else { return ReadingText.name(quantity) }
        if let what = quantity.info?.slotName?(number) {
            // Translators: a quantity and what its number stands for, "Acceleration (X axis)".
            return L10n.format("{} ({})", ReadingText.name(quantity), what)
        }
        // Translators: a quantity and the number of its probe, "Temperature 2".
        return L10n.format("{} {}", ReadingText.name(quantity), Formats.number(number))
    }

    /// Where a reading comes among the main ones; the rest after them.
    static func order(_ key: String) -> Int {
        // "carbon_dioxide_2" is the second carbon_dioxide, not a "carbon".
        Quantity.named(key).info?.order ?? QuantityCatalog.mainKeys.count
    }

    /// At most 240 points, each with its moment: the samples themselves, or the mean of each
    /// slice of the span that has readings, at the slice's mean moment.
    static func buckets(_ line: [SensorSample], from start: Date, to end: Date) -> [(time: Date, value: Double)] {
        guard line.count > 240 else { return line.filter { $0.time >= start }.map { ($0.time, $0.value) } }
        let width = max(end.timeIntervalSince(start) / 240, 1)
        var sums: [Int: (seconds: Double, value: Double, n: Int)] = [:]
        for sample in line where sample.time >= start {
            let slot = Int(sample.time.timeIntervalSince(start) / width)
            let sum = sums[slot] ?? (0, 0, 0)
            sums[slot] = (sum.seconds + sample.time.timeIntervalSince(start), sum.value + sample.value, sum.n + 1)
        }
        return sums.keys.sorted().map { slot in
            let sum = sums[slot]!
            return (start.addingTimeInterval(sum.seconds / Double(sum.n)), sum.value / Double(sum.n))
        }
    }

    private func loadStoredReadings() {
        guard readingsPeriod != .hour, let store = live.readingsStore else { return }
        let since = Date().addingTimeInterval(-readingsPeriod.seconds), id = id
        storedReadings = StoredReadings(loaded: Date(), samples: storedReadings?.samples ?? [])
        Task { [weak self] in
            let samples = (try? await store.history(for: id, since: since)) ?? []
            guard let self else { return }
            self.storedReadings = StoredReadings(loaded: Date(), samples: samples)
            self.observersNotify()
        }
    }
}

/// The day's or week's readings as last read from the store.
struct StoredReadings {
    let loaded: Date
    let samples: [SensorSample]
}
