// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import GtkKit
import Localization
import ViewModels

/// A small line of a characteristic's newest decoded numbers (a heart rate, a temperature),
/// drawn over its scale's axis (else between its lowest and highest), with the scale beside
/// it: the top at the top, the bottom at the bottom, the last value at the line's end, each
/// with its unit. Its words are its accessible description.
///
/// A history's plot also has a time axis: each figure where its moment falls, and under the
/// line the moments at its left edge, its middle and its right edge.
@MainActor
final class ValuePlot {
    let root = Box(vertical: true, spacing: 2)
    private let row = Box(vertical: false, spacing: 6)
    private var area: DrawingArea!
    private let highest = Label().xalign(1)
    private let lowest = Label().xalign(1)
    private let last = Label().xalign(0)
    /// The moments under the line; hidden where the figures have none. The edges' moments stand
    /// under the scale's columns, ending and starting where the line does, so a narrow window
    /// leaves the line's own width to the middle one.
    private let times = Box(vertical: false, spacing: 0)
    private let moments = [Label().xalign(1), Label().xalign(0.5), Label().xalign(0)]
    private var figures: [Double] = []
    private var positions: [Double]?
    private var axis: ClosedRange<Double>?
    /// The room beside the line on each side, for the scale's words.
    private static let side: Int32 = 76

    init() {
        area = DrawingArea { [weak self] canvas in self?.draw(on: canvas) }
        area.sizeRequest(width: 120, height: 56)
        area.expand(horizontal: true, vertical: false)
        for label in [highest, lowest] { label.css("caption", "dim-text", "numeric") }
        last.css("caption", "numeric")
        highest.align(.end, .start)
        lowest.align(.end, .end)
        last.align(.start, .center)
        let edges = Box(vertical: true, spacing: 0).append(highest, lowest)
        edges.expand(horizontal: false, vertical: true)
        // The same room for every scale, so plots one under another line up.
        edges.sizeRequest(width: Self.side, height: -1)
        last.sizeRequest(width: Self.side, height: -1)
        lowest.expand(horizontal: false, vertical: true)
        row.append(edges, area, last)
        for label in moments {
            label.css("caption", "dim-text", "numeric")
            times.append(label)
        }
        moments[0].sizeRequest(width: Self.side + 6, height: -1)
        moments[2].sizeRequest(width: Self.side + 6, height: -1)
        moments[1].expand(horizontal: true, vertical: false)
        times.isVisible = false
        root.append(row, times)
    }

    /// Shows `figures` (oldest first) on `scale`, named `name` and described by `summary`; `axis`
    /// stands for the scale's where no words go beside the line.
    func show(_ figures: [Double], scale: DeviceServicesViewModel.Scale?, axis: ClosedRange<Double>? = nil,
              name: String, summary: String?, time: (positions: [Double], labels: [String])? = nil) {
        root.isVisible = figures.count >= 2
        times.isVisible = time != nil
        if let time {
            for (label, text) in zip(moments, time.labels) where label.text != text { label.text = text }
        }
        let positions = time.map(\.positions)
        highest.text = scale?.highest ?? ""
        lowest.text = scale?.lowest ?? ""
        last.text = scale?.last ?? ""
        area.accessibleLabel(L10n.format("Plot of {}", name))
        area.accessibleDescription(summary ?? "")
        let axis = scale?.axis ?? axis
        guard figures != self.figures || axis != self.axis || positions != self.positions else { return }
        self.figures = figures
        self.positions = positions
        self.axis = axis
        area.redraw()
    }

    private func draw(on canvas: Canvas) {
        let w = Double(canvas.width), h = Double(canvas.height)
        let fg = canvas.foreground
        canvas.setColor(fg.withAlpha(0.06))
        canvas.rectangle(x: 0, y: 0, width: w, height: h)
        canvas.fill()
        guard figures.count >= 2, var low = figures.min(), var high = figures.max() else { return }
        if let axis { (low, high) = (axis.lowerBound, axis.upperBound) }
        // A flat series with no axis sits in the middle rather than on an edge.
        let range = high > low ? high - low : 1
        let margin = 4.0
        canvas.setColor((canvas.themeColor("accent_color") ?? fg).withAlpha(1))
        canvas.setLineWidth(2)
        canvas.setLineStyle(.round)
        if positions != nil {
            // The middle moment's line, faint, so the label under it is read against the figures.
            canvas.setColor(fg.withAlpha(0.12))
            canvas.setLineWidth(1)
            canvas.moveTo(w / 2, 0)
            canvas.lineTo(w / 2, h)
            canvas.stroke()
            canvas.setColor((canvas.themeColor("accent_color") ?? fg).withAlpha(1))
            canvas.setLineWidth(2)
        }
        for (index, value) in figures.enumerated() {
            let x = w * (positions.flatMap { $0.count == figures.count ? $0[index] : nil } ?? Double(index) / Double(figures.count - 1))
            let y = high > low ? margin + (high - value) / range * (h - 2 * margin) : h / 2
            if index == 0 { canvas.moveTo(x, y) } else { canvas.lineTo(x, y) }
        }
        canvas.stroke()
    }
}
