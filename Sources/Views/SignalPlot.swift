// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// A device's recent signal, drawn with cairo over the span its readings cover (30 s to
/// five minutes), with its figures in words.
@MainActor
final class SignalPlot {
    /// The whole block: heading, axis labels, plot and summary line.
    let root = Box(vertical: true, spacing: 6)
    private var area: DrawingArea!
    private let summary = Label()
    private let xLabels = [Label(), Label(), Label()]
    private var history: DeviceDetailViewModel.SignalHistory?
    /// Seconds the time axis spans: what is known, at most five minutes.
    private var span = DeviceDetailViewModel.historySpan

    /// The dBm shown at the top and bottom edges; readings beyond are drawn at the edge.
    static let top = -30
    static let bottom = -100
    /// The labelled levels: top, middle and bottom.
    static let ticks = [top, (top + bottom) / 2, bottom]
    /// The spans the time axis chooses from, seconds: the shortest that holds every reading.
    static let spans: [Double] = [30, 60, 120, 300]
    /// A silence longer than this breaks the line.
    static let gapSeconds = 15.0

    init() {
        let heading = Label(L10n.tr("Signal History")).xalign(0)
        heading.css("heading")
        heading.expand(horizontal: true, vertical: false)
        // One action needs no menu (a menu's popover, opened by a screen reader while the plot is
        // scrolled out of the window, was placed on no monitor). Its page adds the "plot" actions.
        let export = Button(icon: "document-save-as-symbolic", accessibleName: L10n.tr("Export Signal History…"))
        export.tooltip(L10n.tr("Export Signal History…"))
        export.css("flat")
        export.action("plot.export-history")
        let headingRow = Box(vertical: false, spacing: 6).append(heading, export)
        area = DrawingArea { [weak self] canvas in self?.draw(on: canvas) }
        area.sizeRequest(width: 120, height: 120)
        area.expand(horizontal: true, vertical: false)
        area.accessibleLabel(L10n.tr("Signal history"))

        // Three labels a side, at the edges and the middle, where the grid lines are.
        let yAxis = Box(vertical: true)
        for (i, dBm) in Self.ticks.enumerated() {
            let label = Label(ScannerPage.dBm(dBm)).css("caption", "dim-text")
            label.expand(horizontal: false, vertical: true).align(.end, [.start, .center, .end][i])
            yAxis.append(label)
        }
        let xAxis = Box(vertical: false)
        for (i, label) in xLabels.enumerated() {
            label.xalign([0, 0.5, 1][i]).css("caption", "dim-text")
            label.expand(horizontal: true, vertical: false)
            xAxis.append(label)
        }
        // A grid keeps the time labels under the plot and the dBm labels beside it.
        let grid = Grid(columnSpacing: 6, rowSpacing: 2)
        grid.attach(yAxis, column: 0, row: 0)
        grid.attach(area, column: 1, row: 0)
        grid.attach(xAxis, column: 1, row: 1)

        summary.xalign(0).wrap()
        summary.css("dim-text")
        root.append(headingRow, grid, summary)
        // The dBm labels are repeated in the summary, so screen readers read the summary instead.
        yAxis.accessibleHidden()
        xAxis.accessibleHidden()
        show(nil)
    }

    /// What the summary line (and the accessible description) says.
    var summaryText: String { summary.text }

    /// Shows `history` (nil: nothing heard in the span).
    func show(_ history: DeviceDetailViewModel.SignalHistory?) {
        self.history = history
        let oldest = history?.points.first?.secondsAgo ?? DeviceDetailViewModel.historySpan
        let span = Self.spans.first { $0 >= oldest } ?? DeviceDetailViewModel.historySpan
        if span != self.span || xLabels[2].text.isEmpty {
            self.span = span
            xLabels[0].text = L10n.format("{} ago", Formats.age(seconds: span))
            xLabels[1].text = L10n.format("{} ago", Formats.age(seconds: span / 2))
            xLabels[2].text = L10n.tr("now")
        }
        let text: String
        if let history {
            // The span the axis shows ("Last 1 min"), so the words and the axis agree.
            text = L10n.format("Last {}: lowest {}, highest {}, last {}", Formats.age(seconds: span),
                               ScannerPage.dBm(history.lowest), ScannerPage.dBm(history.highest), ScannerPage.dBm(history.last))
        } else {
            text = L10n.tr("No readings in the last 5 minutes.")
        }
        if summary.text != text {
            summary.text = text
            area.accessibleDescription(text)
        }
        area.redraw()
    }

    private func draw(on canvas: Canvas) {
        let w = Double(canvas.width), h = Double(canvas.height)
        let fg = canvas.foreground
        let accent = canvas.themeColor("accent_color") ?? fg

        // Frame and grid lines every 20 dB.
        canvas.setLineWidth(1)
        canvas.setColor(fg.withAlpha(0.06))
        canvas.rectangle(x: 0, y: 0, width: w, height: h)
        canvas.fill()
        canvas.setColor(fg.withAlpha(0.18))
        for dBm in Self.ticks {
            let y = (y(for: dBm, height: h)).rounded() + 0.5
            canvas.moveTo(0, y)
            canvas.lineTo(w, y)
        }
        let middle = (w / 2).rounded() + 0.5
        canvas.moveTo(middle, 0)
        canvas.lineTo(middle, h)
        canvas.stroke()

        guard let points = history?.points, !points.isEmpty else { return }
        canvas.setColor(accent.withAlpha(1))
        canvas.setLineWidth(2)
        canvas.setLineStyle(.round)
        var previous: DeviceDetailViewModel.SignalHistory.Point?
        for point in points {
            let x = w * (1 - point.secondsAgo / span)
            let y = y(for: point.rssi, height: h)
            if let previous, previous.secondsAgo - point.secondsAgo <= Self.gapSeconds {
                canvas.lineTo(x, y)
            } else {
                canvas.moveTo(x, y)
                // A lone reading still shows, as a dot.
                canvas.lineTo(x, y)
            }
            previous = point
        }
        canvas.stroke()
    }

    private func y(for dBm: Int, height: Double) -> Double {
        let clamped = Double(min(max(dBm, Self.bottom), Self.top))
        let margin = 4.0
        return margin + (Double(Self.top) - clamped) / Double(Self.top - Self.bottom) * (height - 2 * margin)
    }
}
