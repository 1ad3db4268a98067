// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// An AdwApplicationWindow.
@MainActor
public final class Window: Widget {
    /// Creates a window belonging to `application`.
    public init(application: Application) {
        super.init(adw_application_window_new(application.application))
    }

    /// Another toplevel (a preferences window) as a parent for dialogs.
    init(borrowingWindow pointer: UnsafeMutablePointer<GtkWidget>) {
        super.init(borrowing: pointer)
    }

    /// As a GtkWindow, for the GTK calls inside GtkKit (dialog parents, say).
    var window: UnsafeMutablePointer<GtkWindow> { gcast(object) }

    /// The icon every window shows unless it sets its own (the app ID, looked up in the icon theme).
    public static func setDefaultIconName(_ name: String) {
        gtk_window_set_default_icon_name(name)
    }

    /// This window's icon, by name; a window already on screen takes it at once.
    public func setIconName(_ name: String) {
        gtk_window_set_icon_name(window, name)
    }

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

    /// The size the window would take when not maximized, in pixels.
    public var defaultSize: (width: Int32, height: Int32) {
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(window, &width, &height)
        return (width, height)
    }

    /// The smallest size the layout must work in, in pixels.
    public func setMinimumSize(width: Int32, height: Int32) {
        gtk_widget_set_size_request(widget, width, height)
    }

    /// Whether the window fills the screen (as the window manager last said).
    public var isMaximized: Bool { gtk_window_is_maximized(window) != 0 }

    /// Asks the window manager to maximize the window.
    public func maximize() { gtk_window_maximize(window) }

    /// Shows the window and brings it to the front.
    public func present() { gtk_window_present(window) }

    /// The widget holding keyboard focus now, to give it back later (after a page or a
    /// dialog that covered it has gone); nil when nothing has focus.
    public var focusedWidget: Widget? {
        gtk_root_get_focus(gcast(object)).map { Widget(borrowing: $0) }
    }

    /// Leaves nothing focused, so the first Tab goes to the first control in reading order.
    public func clearFocus() { gtk_window_set_focus(window, nil) }

    /// Closes the window, as the close button does.
    public func close() { gtk_window_close(window) }

    /// Destroys the window.
    public func destroy() { gtk_window_destroy(window) }

    /// Runs `handler` when the user (or `close()`) asks to close the window, before it goes.
    public func onCloseRequest(_ handler: @escaping () -> Void) {
        // Returning nothing lets the window close.
        connect("close-request") { _ in handler() }
    }

    /// Adds a window action (`win.NAME`).
    @discardableResult
    public func addAction(_ name: String, _ handler: @escaping () -> Void) -> Action {
        Actions.add(to: UnsafeMutableRawPointer(object), name, handler)
    }
}

/// The completion of one `showURI`, carried through GIO's C callback.
private final class ShowURICompletion {
    let done: @MainActor (String?) -> Void
    init(_ done: @escaping @MainActor (String?) -> Void) { self.done = done }
}

extension Window {
    /// Asks the desktop to open `uri` ("help:favblue") for this window: the portal where there
    /// is one, else the handler GIO knows for its scheme. `done` gets nil, or why it could not.
    public func showURI(_ uri: String, done: @escaping @MainActor (String?) -> Void) {
        let box = Unmanaged.passRetained(ShowURICompletion(done)).toOpaque()
        gtk_show_uri_full(window, uri, guint32(GDK_CURRENT_TIME), nil, { source, result, data in
            guard let data else { return }
            let completion = Unmanaged<ShowURICompletion>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            var message: String?
            if gtk_show_uri_full_finish(cgtk_window_cast(source.map { UnsafeMutableRawPointer($0) }), result, &error) == 0 {
                message = error.map { String(cString: $0.pointee.message) } ?? ""
                if error != nil { g_error_free(error) }
            }
            MainActor.assumeIsolated { completion.done(message) }
        }, box)
    }
}
