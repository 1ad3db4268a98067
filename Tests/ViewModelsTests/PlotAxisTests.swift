// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import ViewModels
import XCTest

/// Small plots draw over a span their quantity gives them, so a steady figure is a flat line
/// and noise stays small.
final class PlotAxisTests: XCTestCase {
    func testASteadyBatteryDrawsOnZeroToAHundredPercentNotOnItsOwnFigure() {
        XCTAssertEqual(PlotAxis.range(low: 81, high: 81, of: .battery), 0...100)
        XCTAssertEqual(PlotAxis.range(low: 45, high: 52, of: .humidity), 0...100)
        XCTAssertEqual(PlotAxis.range(low: 62.64, high: 62.64, of: .humidity), 0...100, "not −1 % from a rounding error")
    }

    func testAPercentageBeyondAHundredIsStillDrawnWhole() {
        XCTAssertEqual(PlotAxis.range(low: 90, high: 163.8, of: .humidity), 0...164)
    }

    func testASteadyTemperatureSpansTwoDegreesWithWholeEdges() {
        XCTAssertEqual(PlotAxis.range(low: 21.4, high: 21.4, of: .temperature), 20...23)
        XCTAssertEqual(PlotAxis.range(low: 18.2, high: 26.7, of: .temperature), 18...27, "a wide span is the figures'")
    }

    func testThreeDecibelsOfNoiseSpanAtLeastTwentyDecibels() {
        let axis = PlotAxis.signal(low: -61, high: -58)
        XCTAssertEqual(axis.upperBound - axis.lowerBound, 20)
        XCTAssertTrue(axis.contains(-61) && axis.contains(-58))
        XCTAssertEqual(PlotAxis.signal(low: -90, high: -40), -90...(-40), "a span over 20 dB is the figures'")
    }

    // MARK: Time

    /// 21:30:00 UTC: in any whole-hour time zone its minutes read ":30".
    private let now = Date(timeIntervalSince1970: 1_795_987_800)

    func testFiveMinutesOfReadingsSpanTenWithTheMiddleFiveMinutesBack() {
        let axis = PlotAxis.time(now: now, covering: 300, period: 3600)
        XCTAssertEqual(axis.start, now.addingTimeInterval(-600))
        XCTAssertEqual(axis.position(of: now.addingTimeInterval(-300)), 0.5)
        XCTAssertEqual(axis.position(of: now), 1)
        XCTAssertEqual(axis.labels.count, 3)
        for (label, minutes) in zip(axis.labels, [":20", ":25", ":30"]) {
            XCTAssertTrue(label.contains(minutes), "\(axis.labels): a moment to the minute, not a rounded age")
        }
    }

    func testAnHourOfReadingsNeverSpansBeyondTheHour() {
        let axis = PlotAxis.time(now: now, covering: 5000, period: 3600)
        XCTAssertEqual(axis.start, now.addingTimeInterval(-3600))
        XCTAssertEqual(axis.position(of: now.addingTimeInterval(-7200)), 0, "older than the period: at the edge, not beyond")
        XCTAssertTrue(axis.labels[1].contains(":00"), "\(axis.labels)")
    }

    func testADaySaysTheWeekdayAndAWeekTheDateSoTheEdgesDiffer() {
        let day = PlotAxis.time(now: now, covering: 80_000, period: 86_400)
        XCTAssertEqual(day.start, now.addingTimeInterval(-86_400))
        XCTAssertNotEqual(day.labels[0], day.labels[2], "yesterday 21:30 is not today 21:30")
        let week = PlotAxis.time(now: now, covering: 600_000, period: 604_800)
        XCTAssertEqual(week.start, now.addingTimeInterval(-604_800))
        XCTAssertEqual(Set(week.labels).count, 3, "a week's edges are dates, a week apart: \(week.labels)")
        XCTAssertFalse(week.labels[1].contains(":"), "a date says the day the middle falls in, no time of day")
    }
}
