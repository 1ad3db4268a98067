// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import GtkKit
import Localization
import ViewModels

/// "Where It Was Seen" on a tracker's page: its last day drawn as bands, one per stay at a
/// place, under its signal, then the stays in words, newest first.
@MainActor
final class TrackerTimelineView {
    let root = Box(vertical: true, spacing: 6)
    private var area: DrawingArea!
    private let summary = Label().xalign(0).wrap()
    private let stays = BoxedList(accessibleName: L10n.tr("Places it was seen at"))
    private let earlier = Label().xalign(0)
    private var shown: TrackerTimeline?
    private var rows: [(title: Label, detail: Label, row: ContentRow)] = []
    /// How many stays are listed; the drawing shows them all.
    static let listed = 6

    init() {
        let heading = Label(L10n.tr("Where It Was Seen")).xalign(0)
        heading.css("heading")
        area = DrawingArea { [weak self] canvas in self?.draw(on: canvas) }
        area.sizeRequest(width: 120, height: 64)
        area.expand(horizontal: true, vertical: false)
        area.accessibleLabel(L10n.tr("Timeline of where it was seen"))
        summary.css("dim-text")
        earlier.css("caption", "dim-text")
        root.append(heading, area, summary, stays, earlier)
        root.isVisible = false
    }

    func show(_ timeline: TrackerTimeline?) {
        root.isVisible = timeline != nil
        guard timeline != shown else { return }
        shown = timeline
        area.redraw()
        guard let timeline else { return }
        summary.text = timeline.summary
        area.accessibleDescription(timeline.summary)
        // The rows are changed in place: a stay's times grow, and a new one comes now and then.
        let shownStays = Array(timeline.stretches.suffix(Self.listed).reversed())
        while rows.count < shownStays.count {
            let title = Label().xalign(0).wrap()
            let detail = Label().xalign(0).wrap()
            detail.css("caption", "dim-text", "numeric")
            let box = Box(vertical: true, spacing: 2).append(title, detail)
            box.margins(10)
            let row = ContentRow(box, accessibleName: "")
            stays.append(row)
            rows.append((title, detail, row))
        }
        while rows.count > shownStays.count, let last = rows.popLast() { stays.remove(last.row) }
        for (stretch, row) in zip(shownStays, rows) {
            row.title.text = stretch.title
            row.detail.text = stretch.detail
            row.row.accessibleLabel(stretch.title + ", " + stretch.detail)
        }
        let hidden = timeline.stretches.count - Self.listed
        earlier.isVisible = hidden > 0
        earlier.text = hidden > 0 ? L10n.plural("and {} earlier stay", "and {} earlier stays", hidden, Formats.number(hidden)) : ""
    }

    private func draw(on canvas: Canvas) {
        let w = Double(canvas.width), h = Double(canvas.height)
        let fg = canvas.foreground
        let accent = canvas.themeColor("accent_color") ?? fg
        canvas.setColor(fg.withAlpha(0.06))
        canvas.rectangle(x: 0, y: 0, width: w, height: h)
        canvas.fill()
        guard let timeline = shown else { return }
        let span = max(timeline.end.timeIntervalSince(timeline.start), 1)
        func x(_ date: Date) -> Double { w * date.timeIntervalSince(timeline.start) / span }
        // A band per stay; neighbouring places in two tints, so a change of place shows.
        for stretch in timeline.stretches {
            let tint = (stretch.place ?? 0) % 2 == 0 ? 0.16 : 0.32
            canvas.setColor(accent.withAlpha(stretch.place == nil ? 0.12 : tint))
            canvas.rectangle(x: x(stretch.start), y: h - 10, width: max(x(stretch.end) - x(stretch.start), 3), height: 10)
            canvas.fill()
        }
        // The signal above the bands, −100 dBm at the bottom, −30 at the top.
        let plotHeight = h - 14
        canvas.setColor(fg.withAlpha(0.8))
        for point in timeline.signal {
            let level = (Double(min(max(point.rssi, -100), -30)) + 100) / 70
            canvas.rectangle(x: x(point.time) - 1.5, y: plotHeight * (1 - level), width: 3, height: 3)
        }
        canvas.fill()
    }
}
