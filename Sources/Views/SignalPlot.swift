// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// The last five minutes of a device's signal, drawn with cairo, with its figures in words.
@MainActor
final class SignalPlot {
    /// The whole block: heading, axis labels, plot and summary line.
    let root = Box(vertical: true, spacing: 6)
    private var area: DrawingArea!
    private let summary = Label()
    private var history: DeviceDetailViewModel.SignalHistory?

    /// The dBm shown at the top and bottom edges; readings beyond are drawn at the edge.
    static let top = -30
    static let bottom = -100
    /// A silence longer than this breaks the line.
    static let gapSeconds = 15.0

    init() {
        let heading = Label(L10n.tr("Signal History")).xalign(0)
        heading.css("heading")
        area = DrawingArea { [weak self] cr, width, height in self?.draw(cr, width, height) }
        gtk_widget_set_size_request(area.widget, 120, 120)
        area.expand(horizontal: true, vertical: false)
        area.accessibleLabel(L10n.tr("Signal history"))

        let yTop = Label(ScannerPage.dBm(Self.top)).css("caption", "dim-text")
        let yBottom = Label(ScannerPage.dBm(Self.bottom)).css("caption", "dim-text")
        yBottom.expand(horizontal: false, vertical: true).align(GTK_ALIGN_END, GTK_ALIGN_END)
        yTop.align(GTK_ALIGN_END, GTK_ALIGN_START)
        let yAxis = Box(vertical: true).append(yTop, yBottom)
        let start = Label(L10n.tr("5 min ago")).xalign(0).css("caption", "dim-text")
        start.expand(horizontal: true, vertical: false)
        let end = Label(L10n.tr("now")).xalign(1).css("caption", "dim-text")
        let xAxis = Box(vertical: false).append(start, end)
        // A grid keeps the time labels under the plot and the dBm labels beside it.
        let grid = Widget(gtk_grid_new())
        gtk_grid_set_column_spacing(gcast(grid.object), 6)
        gtk_grid_set_row_spacing(gcast(grid.object), 2)
        gtk_grid_attach(gcast(grid.object), yAxis.widget, 0, 0, 1, 1)
        gtk_grid_attach(gcast(grid.object), area.widget, 1, 0, 1, 1)
        gtk_grid_attach(gcast(grid.object), xAxis.widget, 1, 1, 1, 1)

        summary.xalign(0).wrap()
        summary.css("dim-text")
        root.append(heading, grid, summary)
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
        let text: String
        if let history {
            text = L10n.format("Last 5 minutes: lowest {}, highest {}, last {}",
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

    private func draw(_ cr: OpaquePointer, _ width: Int32, _ height: Int32) {
        let w = Double(width), h = Double(height)
        let context = gtk_widget_get_style_context(area.widget)
        var fg = GdkRGBA()
        gtk_style_context_get_color(context, &fg)
        var accent = GdkRGBA()
        if gtk_style_context_lookup_color(context, "accent_color", &accent) == 0 { accent = fg }

        // Frame and grid lines every 20 dB.
        cairo_set_line_width(cr, 1)
        cairo_set_source_rgba(cr, Double(fg.red), Double(fg.green), Double(fg.blue), 0.06)
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, Double(fg.red), Double(fg.green), Double(fg.blue), 0.18)
        for dBm in stride(from: Self.top - 10, through: Self.bottom + 10, by: -20) {
            let y = (y(for: dBm, height: h)).rounded() + 0.5
            cairo_move_to(cr, 0, y)
            cairo_line_to(cr, w, y)
        }
        cairo_stroke(cr)

        guard let points = history?.points, !points.isEmpty else { return }
        cairo_set_source_rgba(cr, Double(accent.red), Double(accent.green), Double(accent.blue), 1)
        cairo_set_line_width(cr, 2)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        var previous: DeviceDetailViewModel.SignalHistory.Point?
        for point in points {
            let x = w * (1 - point.secondsAgo / DeviceDetailViewModel.historySpan)
            let y = y(for: point.rssi, height: h)
            if let previous, previous.secondsAgo - point.secondsAgo <= Self.gapSeconds {
                cairo_line_to(cr, x, y)
            } else {
                cairo_move_to(cr, x, y)
                // A lone reading still shows, as a dot.
                cairo_line_to(cr, x, y)
            }
            previous = point
        }
        cairo_stroke(cr)
    }

    private func y(for dBm: Int, height: Double) -> Double {
        let clamped = Double(min(max(dBm, Self.bottom), Self.top))
        let margin = 4.0
        return margin + (Double(Self.top) - clamped) / Double(Self.top - Self.bottom) * (height - 2 * margin)
    }
}
