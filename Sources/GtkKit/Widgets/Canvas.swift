// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// An RGBA colour, each part from 0 to 1.
public struct Color: Equatable, Sendable {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) …1.
    public var alpha: Double

    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    init(_ rgba: GdkRGBA) {
        self.init(red: Double(rgba.red), green: Double(rgba.green), blue: Double(rgba.blue), alpha: Double(rgba.alpha))
    }

    /// The same colour with another opacity.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }
}

/// What a DrawingArea's draw callback paints on: a small face of one cairo context, valid
/// only during the callback. Coordinates are in pixels from the top-left corner.
@MainActor
public struct Canvas {
    let cr: OpaquePointer
    let area: UnsafeMutablePointer<GtkWidget>

    /// The width of the area, in pixels.
    public let width: Int32
    /// The height of the area, in pixels.
    public let height: Int32

    /// How line ends and corners look.
    public enum LineStyle: Sendable {
        /// Square ends and mitred corners (cairo's default).
        case sharp
        /// Round ends and corners, so a lone point shows as a dot.
        case round
    }

    /// The text colour of the area's style (dark on light, light on dark).
    public var foreground: Color {
        var fg = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(area), &fg)
        return Color(fg)
    }

    /// A colour the theme names (`accent_color`), or nil if it has no such colour.
    public func themeColor(_ name: String) -> Color? {
        var color = GdkRGBA()
        guard gtk_style_context_lookup_color(gtk_widget_get_style_context(area), name, &color) != 0 else { return nil }
        return Color(color)
    }

    /// Paints and strokes with `color` from now on.
    public func setColor(_ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    /// The width of stroked lines, in pixels.
    public func setLineWidth(_ width: Double) {
        cairo_set_line_width(cr, width)
    }

    /// How stroked lines end and join.
    public func setLineStyle(_ style: LineStyle) {
        switch style {
        case .sharp:
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round:
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        }
    }

    /// Starts a new piece of the path at (x, y).
    public func moveTo(_ x: Double, _ y: Double) {
        cairo_move_to(cr, x, y)
    }

    /// Extends the path with a straight line to (x, y).
    public func lineTo(_ x: Double, _ y: Double) {
        cairo_line_to(cr, x, y)
    }

    /// Adds a rectangle to the path.
    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(cr, x, y, width, height)
    }

    /// Draws the path's outline and clears the path.
    public func stroke() {
        cairo_stroke(cr)
    }

    /// Fills the path's inside and clears the path.
    public func fill() {
        cairo_fill(cr)
    }
}
