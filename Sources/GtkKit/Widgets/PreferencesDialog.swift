// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim
import Dispatch

/// An AdwPreferencesWindow: pages of settings rows, modal over the main window.
///
/// The wrapper keeps itself, its pages and so every row's control alive while the window is
/// open, so control handlers that capture `[weak self]` keep working; it lets go when the
/// window is closed (close button, Escape or `close()`). Not on "destroy": GTK emits that
/// only when the last reference goes, and this wrapper holds one.
@MainActor
public final class PreferencesDialog: Widget {
    // MARK: Owned
    private var pages: [PreferencesPage] = []
    /// The window outlives its creator's scope until it is closed.
    private var keepAlive: PreferencesDialog?
    private var preferences: UnsafeMutablePointer<AdwPreferencesWindow> { gcast(object) }

    /// A modal preferences window over `parent`, titled `title`, with search turned off.
    public init(parent: Window?, title: String) {
        super.init(adw_preferences_window_new())
        let window: UnsafeMutablePointer<GtkWindow> = gcast(object)
        if let parent {
            gtk_window_set_transient_for(window, parent.window)
            // No larger than the window it serves: libadwaita's 640 × 576 ran past a phone-wide one.
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(window, &width, &height)
            let parentWidth = gtk_widget_get_width(parent.widget), parentHeight = gtk_widget_get_height(parent.widget)
            if parentWidth > 0, parentHeight > 0 {
                gtk_window_set_default_size(window, width > 0 ? min(width, parentWidth) : parentWidth,
                                            height > 0 ? min(height, parentHeight) : parentHeight)
            }
        }
        gtk_window_set_modal(window, 1)
        gtk_window_set_title(window, title)
        adw_preferences_window_set_search_enabled(preferences, 0)
        connect("close-request") { [weak self] _ in
            guard let self else { return }
            // Let go on the next turn of the loop, once GTK has destroyed the window; our
            // reference is then the last one, and dropping it finalizes the window.
            DispatchQueue.main.async { self.keepAlive = nil }
        }
    }

    /// The window as the parent of a dialog opened from one of its rows.
    public var asParent: Window { Window(borrowingWindow: widget) }

    /// Lets the window's search field find rows by their titles.
    public func enableSearch() {
        adw_preferences_window_set_search_enabled(preferences, 1)
    }

    /// Size when the window first appears, in pixels.
    public func setDefaultSize(width: Int32, height: Int32) {
        gtk_window_set_default_size(gcast(object), width, height)
    }

    /// Adds `page` (one tab; with a single page no tabs show).
    public func add(_ page: PreferencesPage) {
        adw_preferences_window_add(preferences, gcast(UnsafeMutableRawPointer(page.object)))
        pages.append(page)
    }

    /// Puts the page named `name` on show.
    public func showPage(named name: String) {
        adw_preferences_window_set_visible_page_name(preferences, name)
    }

    /// Shows the window; it stays alive until it is closed.
    public func present() {
        keepAlive = self
        gtk_window_present(gcast(object))
    }

    /// Closes the window, as its close button does; GTK then destroys it.
    public func close() {
        gtk_window_close(gcast(object))
    }
}
