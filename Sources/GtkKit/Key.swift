// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A key on the keyboard, as GDK names it (a keyval).
public struct Key: Hashable, Sendable {
    /// GDK's keyval.
    let keyval: UInt32

    init(_ keyval: Int32) { self.keyval = UInt32(bitPattern: keyval) }
    init(keyval: UInt32) { self.keyval = keyval }

    /// Delete.
    public static let delete = Key(GDK_KEY_Delete)
    /// Delete on the keypad.
    public static let keypadDelete = Key(GDK_KEY_KP_Delete)
    /// The context-menu key.
    public static let menu = Key(GDK_KEY_Menu)
    /// F2, rename.
    public static let f2 = Key(GDK_KEY_F2)
    /// F5, refresh.
    public static let f5 = Key(GDK_KEY_F5)
    /// F10, the menu key (with Shift: the context menu).
    public static let f10 = Key(GDK_KEY_F10)
    /// Escape.
    public static let escape = Key(GDK_KEY_Escape)
    /// Enter (Return).
    public static let enter = Key(GDK_KEY_Return)
    /// Up arrow.
    public static let up = Key(GDK_KEY_Up)
    /// Tab, and what Shift makes of it.
    static let tabs: Set<Key> = [Key(GDK_KEY_Tab), Key(GDK_KEY_KP_Tab), Key(GDK_KEY_ISO_Left_Tab)]
    /// Shift+Tab, as X sends it.
    static let leftTab = Key(GDK_KEY_ISO_Left_Tab)

    /// The key that types `letter` (a lower-case Latin letter stays lower case).
    public static func letter(_ letter: Unicode.Scalar) -> Key {
        Key(keyval: gdk_unicode_to_keyval(letter.value))
    }

    /// The same key without Shift's capital: `R` gives `r`, other keys stay as they are.
    public var lowercased: Key { Key(keyval: gdk_keyval_to_lower(keyval)) }
}

/// The modifier keys held during a key press.
public struct KeyModifiers: OptionSet, Sendable {
    /// GDK's modifier mask.
    public let rawValue: UInt32

    /// Creates a set from GDK's modifier mask.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: GDK_SHIFT_MASK.rawValue)
    /// Control (Primary).
    public static let control = KeyModifiers(rawValue: GDK_CONTROL_MASK.rawValue)
    /// Alt.
    public static let alt = KeyModifiers(rawValue: GDK_ALT_MASK.rawValue)
}
