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
    /// The identifier and its kind, on one line.
    public var subtitle: String
    /// The identifier alone and its kind alone, for narrow rows that give each a line; nil keeps `subtitle`.
    public var identifier: Identifier?
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
    /// The same for a narrow row: shorter (two readings, not three), or a favorite's readings on
    /// a line of their own; nil: `note` fits.
    public var briefNote: String?
    /// "Battery 80 %" where the level is known; nil for none.
    public var battery: String?
    /// A battery-level-* icon name for `battery`.
    public var batteryIcon: String?

    /// An address and its kind, apart.
    public struct Identifier: Equatable {
        /// "AA:BB:CC:DD:EE:FF".
        public var address: String
        /// "private address", in plain words; empty where nothing needs saying.
        public var kind: String

        /// The identifier of `id`; `ownName`, the device's own name under a nickname, leads the kind's line.
        public init(_ id: DeviceID, ownName: String? = nil) {
            address = id.address
            kind = [ownName, id.addressType.plain].compactMap { $0 }.joined(separator: " · ")
        }
    }

    /// Creates row content.
    public init(title: String, titleIsPlaceholder: Bool = false, subtitle: String, identifier: Identifier? = nil,
                signal: String? = nil, signalIcon: String? = nil, signalDescription: String? = nil, isFavorite: Bool,
                age: String? = nil, note: String? = nil, briefNote: String? = nil, battery: String? = nil,
                batteryIcon: String? = nil) {
        self.title = title
        self.titleIsPlaceholder = titleIsPlaceholder
        self.subtitle = subtitle
        self.identifier = identifier
        self.signal = signal
        self.signalIcon = signalIcon
        self.signalDescription = signalDescription
        self.isFavorite = isFavorite
        self.age = age
        self.note = note
        self.briefNote = briefNote
        self.battery = battery
        self.batteryIcon = batteryIcon
    }
}

/// Whether one list's rows are narrow, shared by its rows so that the rows already made
/// follow when the window turns narrow or wide.
@MainActor
final class DeviceRowLayout {
    private final class WeakRow {
        weak var row: DeviceRowView?
        init(_ row: DeviceRowView) { self.row = row }
    }

    private var rows: [WeakRow] = []

    /// Narrow rows give the address a line of its own and the kind the next one.
    var isNarrow = false {
        didSet {
            guard isNarrow != oldValue else { return }
            rows.removeAll { $0.row == nil }
            for entry in rows { entry.row?.applyLayout() }
        }
    }

    func register(_ row: DeviceRowView) { rows.append(WeakRow(row)) }
}

/// One row of a device list: name and identifier, signal, heart and Details.
@MainActor
final class DeviceRowView {
    // MARK: Widgets
    let root = Box(vertical: false, spacing: 12)
    private let title = Label()
    private let subtitle = Label()
    /// The address kind, under the address in narrow rows.
    private let kindLine = Label()
    private let meter = Box(vertical: true, spacing: 2)
    private let signal = Label()
    private let signalIcon = Image()
    private let age = Label()
    /// The level icon, or in its place how old a faded figure is: one slot of one height, so a
    /// row that fades or comes back never grows or shrinks and moves the rows below it.
    private let ageOrIcon: Overlay
    private let note = Label()
    private let battery = Label()
    private let batteryIcon = Image()
    private let batteryLine = Box(vertical: false, spacing: 4)
    private let buttons = Box(vertical: false, spacing: 4)

    // MARK: State
    private(set) var key: String?
    private var shown: DeviceRowContent?
    /// The shown device's own buttons, from the list's pool.
    private var pair: DeviceButtons?

    // MARK: Borrowed
    private let pool: DeviceButtonPool
    private let layout: DeviceRowLayout

    init(pool: DeviceButtonPool, layout: DeviceRowLayout) {
        self.pool = pool
        self.layout = layout
        ageOrIcon = Overlay(child: age)
        let texts = Box(vertical: true, spacing: 2)
        title.xalign(0).ellipsize().css("heading")
        // An address is told apart by its first and last bytes: when even a line of its own is
        // too short, cut it in the middle. Wrapping would reshape rows on every refresh.
        subtitle.xalign(0).ellipsize(middle: true).css("caption", "dim-text")
        kindLine.xalign(0).ellipsize().css("caption", "dim-text")
        kindLine.isVisible = false
        note.xalign(0).ellipsize().css("caption")
        note.isVisible = false
        battery.xalign(0).ellipsize().css("caption")
        // The words say the level; the icon only shows it.
        batteryIcon.accessibleHidden()
        batteryLine.append(batteryIcon, battery)
        batteryLine.isVisible = false
        texts.append(title, subtitle, kindLine, note, batteryLine)
        texts.expand(horizontal: true, vertical: false).align(.fill, .center)
        // The level icon sits over its figure, so a phone-wide (360 px) row keeps room for the name.
        signal.css("caption", "numeric").align(.center, .center)
        signalIcon.align(.center, .center)
        age.css("caption", "dim-text").align(.center, .center)
        // At least the icon's height, whether it says an age or nothing.
        age.sizeRequest(width: -1, height: 16)
        ageOrIcon.add(signalIcon)
        meter.append(ageOrIcon, signal)
        meter.align(.center, .center)
        root.append(texts, meter, buttons)
        root.margins(6)
        // The row itself is a focus stop named after its device, so its context menu
        // (Menu, Shift+F10) and a closing dialog have somewhere to return focus to.
        root.isFocusable = true
        root.css("favblue-device-row")
        layout.register(self)
    }

    /// A row the list tore down lets go of its device's buttons: another row may take them in the
    /// same pass, while this row's widgets are not yet gone, and a button has one parent.
    isolated deinit {
        if let pair {
            buttons.remove(pair.heart)
            buttons.remove(pair.details)
        }
    }

    /// Shows the identifier on one line, or in a narrow row the address on one and its kind on
    /// the next; a narrow row's note is the brief one, so it is not cut off mid-word.
    func applyLayout() {
        guard let content = shown else { return }
        let line = layout.isNarrow ? content.briefNote ?? content.note : content.note
        if note.text != line ?? "" { note.text = line ?? "" }
        let stacked = layout.isNarrow ? content.identifier : nil
        let identifier = stacked?.address ?? content.subtitle
        if subtitle.text != identifier { subtitle.text = identifier }
        kindLine.isVisible = !(stacked?.kind.isEmpty ?? true)
        if let stacked, kindLine.text != stacked.kind { kindLine.text = stacked.kind }
    }

    /// Another row took `pair` for its device; this row is rebound in the same pass.
    func lose(_ pair: DeviceButtons) {
        guard self.pair === pair else { return }
        buttons.remove(pair.heart)
        buttons.remove(pair.details)
        self.pair = nil
    }

    /// Shows `content` for the device `key`, touching only what changed: rows are
    /// rebound several times a second, and each setter costs a relayout or a lookup.
    func show(_ content: DeviceRowContent, key: String) {
        let old = key == self.key ? shown : nil
        if content == old, pair != nil { return }
        if key != self.key || pair == nil {
            if let pair {
                lose(pair)
                pool.give(pair, from: self)
            }
            let mine = pool.take(key, for: self)
            buttons.append(mine.heart, mine.details)
            pair = mine
        }
        self.key = key
        shown = content
        if content.title != old?.title || content.titleIsPlaceholder != old?.titleIsPlaceholder {
            title.text = content.title
            let address = content.titleIsPlaceholder ? content.identifier?.address : nil
            root.accessibleLabel(address.map { L10n.format("{} · {}", content.title, $0) } ?? content.title)
        }
        if content.titleIsPlaceholder != old?.titleIsPlaceholder {
            if content.titleIsPlaceholder { title.css("dim-text") } else { title.removeCSS("dim-text") }
        }
        if content.subtitle != old?.subtitle || content.identifier != old?.identifier || content.note != old?.note
            || content.briefNote != old?.briefNote {
            applyLayout()
        }
        if content.signal != old?.signal {
            signal.isVisible = content.signal != nil
            signal.text = content.signal ?? ""
        }
        if content.signalIcon != old?.signalIcon || content.signalDescription != old?.signalDescription || content.age != old?.age {
            signalIcon.isVisible = content.signalIcon != nil && content.age == nil
            if let icon = content.signalIcon {
                signalIcon.iconName = icon
                signalIcon.accessibleLabel(content.signalDescription ?? "")
            }
        }
        if content.note != old?.note { note.isVisible = content.note != nil }
        if content.battery != old?.battery || content.batteryIcon != old?.batteryIcon {
            batteryLine.isVisible = content.battery != nil
            battery.text = content.battery ?? ""
            batteryIcon.iconName = content.batteryIcon
        }
        if content.age != old?.age {
            age.text = content.age ?? ""
        }
        // Favorites rows show no signal: the meter must then take no room at all.
        meter.isVisible = content.signal != nil || content.signalIcon != nil
        // Unnamed rows are told apart by address: "Details for Unknown device" said of each would name none.
        pair?.show(title: content.titleIsPlaceholder ? content.identifier?.address ?? content.title : content.title,
                   isFavorite: content.isFavorite)
    }
}
