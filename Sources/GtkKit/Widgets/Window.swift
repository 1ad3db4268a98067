// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGtkShim

/// An AdwApplicationWindow.
@MainActor
public final class Window: Widget {
    /// Creates a window belonging to `application`.
    public init(application: Application) {
        super.init(adw_application_window_new(application.application))
    }

    /// As a GtkWindow.
    public var window: UnsafeMutablePointer<GtkWindow> { gcast(object) }

    /// Sets the whole content of the window.
    public func setContent(_ child: Widget) {
        adw_application_window_set_content(gcast(object), child.widget)
    }

    /// Window title, used by the window list and screen readers.
    public var title: String {
        get { gtk_window_get_title(window).map { String(cString: $0) } ?? "" }
        set { gtk_window_set_title(window, newValue) }
    }

    /// Size used when the window first appears, in pixels.
    public func setDefaultSize(width: Int32, height: Int32) {
        gtk_window_set_default_size(window, width, height)
    }

    /// The smallest size the layout must work in, in pixels.
    public func setMinimumSize(width: Int32, height: Int32) {
        gtk_widget_set_size_request(widget, width, height)
    }

    /// Shows the window and brings it to the front.
    public func present() { gtk_window_present(window) }

    /// Closes the window, as the close button does.
    public func close() { gtk_window_close(window) }

    /// Destroys the window.
    public func destroy() { gtk_window_destroy(window) }

    /// Adds a window action (`win.NAME`).
    @discardableResult
    public func addAction(_ name: String, _ handler: @escaping () -> Void) -> OpaquePointer {
        Actions.add(to: object, name, handler)
    }
}
