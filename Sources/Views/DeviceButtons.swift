// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// One device's heart and Details buttons. They belong to the device, not to a row.
///
/// Voice control and switch access read a button's name, then activate it a moment
/// later. When the list re-sorts, the row itself moves with its device (`KeyedListView`),
/// buttons included. A row that scrolled out is reused for another device; that device
/// brings its own buttons, so a late activation of the old ones never acts on it.
@MainActor
final class DeviceButtons {
    let key: String
    let heart = Button(icon: "favblue-heart-outline-symbolic", accessibleName: "")
    // An "i", not a chevron: in GNOME a row ending in ">" opens when clicked, and these rows
    // open Add to Favorites (Scanner) or Rename (Favorites); details are this button's.
    let details = Button(icon: "help-about-symbolic", accessibleName: "")
    /// The row showing them now; nil while they wait in the pool.
    weak var owner: DeviceRowView?
    private var shownFavorite: Bool?
    private var shownTitle: String?

    init(key: String, focusable: Bool, onHeart: @escaping (String) -> Void, onDetails: @escaping (String) -> Void) {
        self.key = key
        heart.css("flat", "circular").align(.center, .center)
        details.css("flat", "circular").align(.center, .center)
        // In a list that is one Tab stop, the keyboard reaches them through the row (Enter, the
        // row menu); pointer and assistive technology still press them.
        heart.isFocusable = focusable
        details.isFocusable = focusable
        heart.onClicked { onHeart(key) }
        details.onClicked { [weak self] in
            // Clicked, or activated over AT-SPI (voice control), it has not taken the focus: it
            // takes it now, so going back from the page returns here, as it does for the keyboard.
            self?.details.grabFocus()
            onDetails(key)
        }
    }

    /// Names and draws them for `title`, a favorite or not; only what changed is touched.
    func show(title: String, isFavorite: Bool) {
        if isFavorite != shownFavorite {
            heart.setIcon(isFavorite ? "favblue-heart-filled-symbolic" : "favblue-heart-outline-symbolic")
            if isFavorite { heart.css("favorite-heart") } else { heart.removeCSS("favorite-heart") }
        }
        if isFavorite != shownFavorite || title != shownTitle {
            let heartName = isFavorite ? L10n.format("Remove {} from favorites", title) : L10n.format("Add {} to favorites", title)
            // Tooltips stay generic: they are the same for every device.
            heart.accessibleLabel(heartName).tooltip(isFavorite ? L10n.tr("Remove from Favorites") : L10n.tr("Add to Favorites"))
            details.accessibleLabel(L10n.format("Details for {}", title)).tooltip(L10n.tr("Details"))
        }
        shownFavorite = isFavorite
        shownTitle = title
    }
}

/// The buttons of the devices a list has shown lately, so a device moving to another
/// row takes its own buttons along; only a device never shown before gets new ones.
@MainActor
final class DeviceButtonPool {
    private var pairs: [String: DeviceButtons] = [:]
    /// Keys whose buttons no row shows, oldest first; the oldest go beyond `spare`.
    private var idle: [String] = []
    private let spare = 256
    private let onHeart: (String) -> Void
    private let onDetails: (String) -> Void
    private let focusable: Bool

    /// `focusable` false keeps the buttons out of the Tab chain, so the list is one stop.
    init(focusable: Bool = true, onHeart: @escaping (String) -> Void, onDetails: @escaping (String) -> Void) {
        self.focusable = focusable
        self.onHeart = onHeart
        self.onDetails = onDetails
    }

    /// The buttons of `key` for `row`, taken from the row that shows them if there is one.
    func take(_ key: String, for row: DeviceRowView) -> DeviceButtons {
        let pair = pairs[key] ?? DeviceButtons(key: key, focusable: focusable, onHeart: onHeart, onDetails: onDetails)
        pairs[key] = pair
        if let other = pair.owner, other !== row { other.lose(pair) }
        pair.owner = row
        if let i = idle.firstIndex(of: key) { idle.remove(at: i) }
        return pair
    }

    /// The heart button of `key`, if its device has been shown.
    func heart(of key: String) -> Button? { pairs[key]?.heart }

    /// `row` no longer shows `pair`; it waits here for its device to come back.
    func give(_ pair: DeviceButtons, from row: DeviceRowView) {
        guard pair.owner === row else { return }
        pair.owner = nil
        idle.append(pair.key)
        if idle.count > spare {
            let dropped = idle.removeFirst()
            if pairs[dropped]?.owner == nil { pairs[dropped] = nil }
        }
    }
}
