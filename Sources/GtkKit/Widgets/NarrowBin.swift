// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// When a width counts as narrow. A window dragged back and forth across one
/// threshold would switch layouts on every pixel, so it turns narrow below
/// `narrowBelow` but wide again only from `narrowBelow + margin`.
public struct NarrowThreshold: Equatable, Sendable {
    /// Narrower than this (pixels) is narrow.
    public var narrowBelow: Int32
    /// How much wider (pixels) it must get before it is wide again.
    public var margin: Int32

    /// A threshold at `narrowBelow` pixels, with `margin` pixels of hysteresis.
    public init(narrowBelow: Int32, margin: Int32) {
        self.narrowBelow = narrowBelow
        self.margin = margin
    }

    /// Whether `width` (pixels) is narrow, given whether it was narrow before.
    public func isNarrow(width: Int32, wasNarrow: Bool) -> Bool {
        wasNarrow ? width < narrowBelow + margin : width < narrowBelow
    }
}

/// A container for one child that says when its width crosses a `NarrowThreshold`,
/// so a layout can fold controls away in narrow windows (libadwaita 1.2 has no breakpoints).
@MainActor
public final class NarrowBin: Widget {
    /// The threshold in use.
    public let threshold: NarrowThreshold
    /// Whether the bin was narrow at its last layout.
    public private(set) var isNarrow = false
    /// The width at the last layout, in pixels (-1 before the first).
    public private(set) var width: Int32 = -1

    private let child: Widget
    private var handlers: [(Bool) -> Void] = []
    private var pending: Timeout?

    /// Wraps `child`, which takes all the bin's room.
    public init(child: Widget, threshold: NarrowThreshold) {
        self.child = child
        self.threshold = threshold
        super.init(cgtk_width_bin_new(child.widget))
        connect("width-changed") { [weak self] args in self?.widthChanged(args.int(1)) }
    }

    /// Asks for no more than `width` pixels, whatever the child's wide layout needs, so a window
    /// manager lets the window shrink to where the narrow layout takes over.
    public func setMinimumWidth(_ width: Int32) {
        cgtk_width_bin_set_min_width(gcast(object), width)
    }

    /// Runs `handler` with the new value whenever `isNarrow` changes.
    public func onNarrowChanged(_ handler: @escaping (Bool) -> Void) {
        handlers.append(handler)
    }

    private func widthChanged(_ newWidth: Int32) {
        width = newWidth
        let narrow = threshold.isNarrow(width: newWidth, wasNarrow: isNarrow)
        guard narrow != isNarrow else { return }
        isNarrow = narrow
        // This runs inside GTK's layout; showing or hiding widgets there would resize them
        // mid-allocation, so the handlers run right after it.
        pending?.cancel()
        pending = Timeout(seconds: 0) { [weak self] in
            guard let self else { return }
            self.pending = nil
            for handler in self.handlers { handler(self.isNarrow) }
        }
    }
}
