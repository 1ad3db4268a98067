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
}
