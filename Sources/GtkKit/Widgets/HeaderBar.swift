// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// An AdwHeaderBar with a title and widgets at either end.
@MainActor
public final class HeaderBar: Widget {
    /// A header bar showing `title`.
    public init(title: String) {
        titleLabel = AdwWindowTitleWidget(title: title)
        super.init(adw_header_bar_new())
        adw_header_bar_set_title_widget(gcast(object), titleLabel.widget)
    }

    /// The title widget, so pages can change the title later.
    public let titleLabel: AdwWindowTitleWidget

    /// Packs `child` at the start (left in left-to-right locales).
    public func packStart(_ child: Widget) { adw_header_bar_pack_start(gcast(object), child.widget) }

    /// Packs `child` at the end.
    public func packEnd(_ child: Widget) { adw_header_bar_pack_end(gcast(object), child.widget) }
}

/// An AdwWindowTitle: a title with an optional subtitle.
@MainActor
public final class AdwWindowTitleWidget: Widget {
    /// Creates a title.
    public init(title: String, subtitle: String = "") {
        super.init(adw_window_title_new(title, subtitle))
    }

    /// The title text.
    public var title: String {
        get { String(cString: adw_window_title_get_title(gcast(object))) }
        set { adw_window_title_set_title(gcast(object), newValue) }
    }

    /// The subtitle text; empty hides it.
    public var subtitle: String {
        get { String(cString: adw_window_title_get_subtitle(gcast(object))) }
        set { adw_window_title_set_subtitle(gcast(object), newValue) }
    }
}
