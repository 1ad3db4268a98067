// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// What one device row shows; pages build it from their view model's rows.
public struct DeviceRowContent: Equatable {
    /// Nickname or name; shown bold.
    public var title: String
    /// Dims the title ("Unknown device").
    public var titleIsPlaceholder = false
    /// The identifier and its kind.
    public var subtitle: String
    /// "−58 dBm", or nil where no signal is shown.
    public var signal: String?
    /// A network-cellular-signal-* icon name.
    public var signalIcon: String?
    /// What the signal icon means, for screen readers ("Signal strength: good").
    public var signalDescription: String?
    /// Whether the device is a favorite (filled, accent heart).
    public var isFavorite: Bool
    /// How old the reading is ("70 s ago"), under the figure; nil while it is live.
    public var age: String?
    /// A third line under the identifier (a favorite's presence); nil for none.
    public var note: String?

    /// Creates row content.
    public init(title: String, titleIsPlaceholder: Bool = false, subtitle: String, signal: String? = nil,
                signalIcon: String? = nil, signalDescription: String? = nil, isFavorite: Bool, age: String? = nil, note: String? = nil) {
        self.title = title
        self.titleIsPlaceholder = titleIsPlaceholder
        self.subtitle = subtitle
        self.signal = signal
        self.signalIcon = signalIcon
        self.signalDescription = signalDescription
        self.isFavorite = isFavorite
        self.age = age
        self.note = note
    }
}

/// One row of a device list: name and identifier, signal, heart and Details.
@MainActor
final class DeviceRowView {
    // MARK: Widgets
    let root = Box(vertical: false, spacing: 12)
    private let title = Label()
    private let subtitle = Label()
    private let meter = Box(vertical: true, spacing: 2)
    private let signal = Label()
    private let signalIcon = Image()
    private let age = Label()
    private let note = Label()
    private let buttons = Box(vertical: false, spacing: 4)
    private var heart: Button!
    private var details: Button!

    // MARK: State
    private(set) var key: String?
    private var shown: DeviceRowContent?
    private let onHeart: (String) -> Void
    private let onDetails: (String) -> Void

    init(onHeart: @escaping (String) -> Void, onDetails: @escaping (String) -> Void) {
        self.onHeart = onHeart
        self.onDetails = onDetails
        let texts = Box(vertical: true, spacing: 2)
        title.xalign(0).ellipsize().css("heading")
        // Narrow windows cut the address in the middle, so its kind stays readable; wrapping
        // would reshape every row's text on each refresh.
        subtitle.xalign(0).ellipsize(middle: true).css("caption", "dim-text")
        note.xalign(0).ellipsize().css("caption")
        note.isVisible = false
        texts.append(title, subtitle, note)
        texts.expand(horizontal: true, vertical: false).align(.fill, .center)
        // The level icon sits over its figure, so a phone-wide (360 px) row keeps room for the name.
        signal.css("caption", "numeric").align(.center, .center)
        signalIcon.align(.center, .center)
        age.css("caption", "dim-text").align(.center, .center)
        age.isVisible = false
        meter.append(signalIcon, signal, age)
        meter.align(.center, .center)
        makeButtons(for: nil)
        root.append(texts, meter, buttons)
        root.margins(6)
    }

    /// New heart and Details buttons for `key`, each acting on that device only.
    ///
    /// A row is rebound to another device when the list re-sorts. Voice control and
    /// switch access read a button's name, then activate it a moment later; a button
    /// kept across the rebinding would then act on whichever device the row shows by
    /// then. New buttons leave the old ones defunct, so a late activation does nothing
    /// rather than open the wrong device.
    private func makeButtons(for key: String?) {
        if let heart, let details {
            buttons.remove(heart)
            buttons.remove(details)
        }
        let heart = Button(icon: "favblue-heart-outline-symbolic", accessibleName: "")
        let details = Button(icon: "go-next-symbolic", accessibleName: "")
        heart.css("flat", "circular").align(.center, .center)
        details.css("flat", "circular").align(.center, .center)
        let onHeart = self.onHeart
        let onDetails = self.onDetails
        heart.onClicked { if let key { onHeart(key) } }
        details.onClicked { if let key { onDetails(key) } }
        buttons.append(heart, details)
        self.heart = heart
        self.details = details
    }

    /// Shows `content` for the device `key`, touching only what changed: rows are
    /// rebound several times a second, and each setter costs a relayout or a lookup.
    func show(_ content: DeviceRowContent, key: String) {
        let old = key == self.key ? shown : nil
        if content == old { return }
        if key != self.key { makeButtons(for: key) }
        self.key = key
        shown = content
        if content.title != old?.title { title.text = content.title }
        if content.titleIsPlaceholder != old?.titleIsPlaceholder {
            if content.titleIsPlaceholder { title.css("dim-text") } else { title.removeCSS("dim-text") }
        }
        if content.subtitle != old?.subtitle { subtitle.text = content.subtitle }
        if content.signal != old?.signal {
            signal.isVisible = content.signal != nil
            signal.text = content.signal ?? ""
        }
        if content.signalIcon != old?.signalIcon || content.signalDescription != old?.signalDescription {
            signalIcon.isVisible = content.signalIcon != nil
            if let icon = content.signalIcon {
                signalIcon.iconName = icon
                signalIcon.accessibleLabel(content.signalDescription ?? "")
            }
        }
        if content.note != old?.note {
            note.isVisible = content.note != nil
            note.text = content.note ?? ""
        }
        if content.age != old?.age {
            age.isVisible = content.age != nil
            age.text = content.age ?? ""
        }
        // Favorites rows show no signal: the meter must then take no room at all.
        meter.isVisible = content.signal != nil || content.signalIcon != nil
        if content.isFavorite != old?.isFavorite {
            heart.setIcon(content.isFavorite ? "favblue-heart-filled-symbolic" : "favblue-heart-outline-symbolic")
            if content.isFavorite { heart.css("favorite-heart") } else { heart.removeCSS("favorite-heart") }
        }
        if content.isFavorite != old?.isFavorite || content.title != old?.title {
            let heartName = content.isFavorite
                ? L10n.format("Remove {} from favorites", content.title)
                : L10n.format("Add {} to favorites", content.title)
            // Tooltips stay generic: they are the same for every row, so rebinding never changes them.
            heart.accessibleLabel(heartName).tooltip(content.isFavorite ? L10n.tr("Remove from Favorites") : L10n.tr("Add to Favorites"))
            details.accessibleLabel(L10n.format("Details for {}", content.title)).tooltip(L10n.tr("Details"))
        }
    }
}
