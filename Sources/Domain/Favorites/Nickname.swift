// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Why a nickname cannot be used.
public enum NicknameError: Error, Equatable, Sendable {
    /// Longer than `Nickname.maxLength` characters; carries the length given.
    case tooLong(Int)
    /// Contains a control character such as a tab or a line break.
    case controlCharacter

    /// A sentence for the user saying what is wrong and what to do.
    public var message: String {
        switch self {
        case .tooLong(let length):
            return L10n.format("A nickname can have at most {} characters; this one has {}.", Nickname.maxLength, length)
        case .controlCharacter:
            return L10n.tr("A nickname cannot contain tabs, line breaks or other control characters.")
        }
    }
}

/// The rules for nicknames the user gives devices.
public enum Nickname {
    /// The longest nickname, in characters (grapheme clusters, so an emoji counts once).
    public static let maxLength = 64

    /// Trims `text` and checks it; returns nil for an empty nickname (meaning "none").
    /// Emoji, combining marks and right-to-left text are kept exactly as typed.
    public static func validate(_ text: String) throws(NicknameError) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        // Only C0/C1 controls and line/paragraph separators: format characters such as
        // the zero-width joiner in emoji or the right-to-left mark must stay.
        let forbidden = trimmed.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
        if forbidden { throw .controlCharacter }
        if trimmed.count > maxLength { throw .tooLong(trimmed.count) }
        return trimmed
    }

    /// The problem with `text` as a sentence for the user, or nil when it is fine.
    public static func problem(with text: String) -> String? {
        do {
            _ = try validate(text)
            return nil
        } catch {
            return error.message
        }
    }
}
