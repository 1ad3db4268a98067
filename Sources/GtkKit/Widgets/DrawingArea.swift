// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkDrawingArea painted by a Swift closure on a Canvas.
@MainActor
public final class DrawingArea: Widget {
    /// Called on each draw with a canvas the size of the area.
    public typealias Draw = (Canvas) -> Void

    /// Holds the closure while GTK holds the draw function; released by its destroy notify.
    private final class Box {
        let draw: Draw
        init(_ draw: @escaping Draw) { self.draw = draw }
    }

    /// An area drawn by `draw`; capture `[weak self]` in it, as GTK keeps it until the area goes.
    public init(_ draw: @escaping Draw) {
        super.init(gtk_drawing_area_new())
        let box = Unmanaged.passRetained(Box(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(gcast(object), { area, cr, width, height, data in
            guard let area, let cr, let data else { return }
            MainActor.assumeIsolated {
                let canvas = Canvas(cr: cr, area: gcast(UnsafeMutableRawPointer(area)), width: width, height: height)
                Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().draw(canvas)
            }
        }, box, { data in
            guard let data else { return }
            Unmanaged<Box>.fromOpaque(data).release()
        })
    }

    /// Asks for a redraw on the next frame.
    public func redraw() { gtk_widget_queue_draw(widget) }
}
