// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// An AdwAboutWindow: the app's name, version, licence, credits and release notes.
///
/// GTK's toplevel list owns the window while it is shown, and closing it destroys it;
/// the wrapper only adds a reference of its own, so it can be dropped right after `present()`.
@MainActor
public final class AboutDialog: Widget {
    private var about: OpaquePointer { gcast(UnsafeMutableRawPointer(object)) }

    /// An About window transient for `parent`.
    public init(parent: Window?) {
        super.init(adw_about_window_new())
        if let parent { gtk_window_set_transient_for(gcast(object), parent.window) }
    }

    /// The application's name, shown large.
    @discardableResult
    public func applicationName(_ text: String) -> Self { adw_about_window_set_application_name(about, text); return self }
    /// The icon name of the application (usually its ID).
    @discardableResult
    public func applicationIcon(_ name: String) -> Self { adw_about_window_set_application_icon(about, name); return self }
    /// The version string.
    @discardableResult
    public func version(_ text: String) -> Self { adw_about_window_set_version(about, text); return self }
    /// Who makes the app, shown under its name.
    @discardableResult
    public func developerName(_ text: String) -> Self { adw_about_window_set_developer_name(about, text); return self }
    /// One sentence on what the app does.
    @discardableResult
    public func comments(_ text: String) -> Self { adw_about_window_set_comments(about, text); return self }
    /// Declares the GNU GPL version 3 (or later) as the licence, with its link.
    @discardableResult
    public func licenseGPL3() -> Self { adw_about_window_set_license_type(about, GTK_LICENSE_GPL_3_0); return self }
    /// The copyright line.
    @discardableResult
    public func copyright(_ text: String) -> Self { adw_about_window_set_copyright(about, text); return self }
    /// The translators' names, one per line.
    @discardableResult
    public func translatorCredits(_ text: String) -> Self { adw_about_window_set_translator_credits(about, text); return self }

    /// The people listed as developers.
    @discardableResult
    public func developers(_ names: [String]) -> Self {
        withCStringArray(names) { adw_about_window_set_developers(about, UnsafeMutablePointer(mutating: $0)) }
        return self
    }

    /// Release notes (a small subset of HTML: <p>, <ul>, <li>) for `version`.
    @discardableResult
    public func releaseNotes(_ markup: String, version: String) -> Self {
        adw_about_window_set_release_notes_version(about, version)
        adw_about_window_set_release_notes(about, markup)
        return self
    }

    /// Shows the window and brings it to the front.
    public func present() {
        // Its Troubleshooting page's "_Copy Text" and "_Save as…" are said once, as every button is.
        Mnemonic.nameButtons(in: widget) { label, accessKey in accessKey && label.contains("_") }
        gtk_window_present(gcast(object))
    }

    /// Closes the window, as its close button does; GTK then destroys it.
    public func close() { gtk_window_close(gcast(object)) }

    /// Runs `handler` when GTK destroys the window (after it is closed).
    public func onDestroy(_ handler: @escaping () -> Void) {
        connect("destroy") { _ in handler() }
    }
}
