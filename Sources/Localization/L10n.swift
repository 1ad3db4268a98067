// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Localization
//
// The one place FavBlue talks to gettext. A leaf: it imports CIntl (glibc's
// libintl.h) and Foundation, and every layer above imports it, so Domain,
// ViewModels, Views and the adapters translate through the same three calls.

import CIntl
import Foundation

/// The gettext domain shared by the app, its data files and its translations.
public let gettextDomain = "favblue"

/// Thin wrappers over gettext for every user-visible string.
///
/// xgettext runs in C mode over the Swift sources with the keywords
/// `tr`, `ctx:1c,2`, `format:1` and `plural:1,2`, so every msgid must be a plain literal.
public enum L10n {
    /// Binds the `favblue` domain to a locale directory (`<dir>/<lang>/LC_MESSAGES/favblue.mo`)
    /// and selects the user's locale. Call once at start-up.
    public static func bind(localeDirectory: String?) {
        setlocale(LC_ALL, "")
        if let localeDirectory {
            bindtextdomain(gettextDomain, localeDirectory)
        }
        bind_textdomain_codeset(gettextDomain, "UTF-8")
        textdomain(gettextDomain)
    }

    /// Translates a plain literal.
    public static func tr(_ msgid: String) -> String {
        // gettext returns `msgid` itself when there is no translation, so read the
        // result while the C string of `msgid` is still alive.
        msgid.withCString { String(cString: dgettext(gettextDomain, $0)) }
    }

    /// Translates a literal that means different things in different places; `context` tells
    /// translators which one (gettext's msgctxt): `L10n.ctx("Preferences group", "Scanning")`.
    public static func ctx(_ context: String, _ msgid: String) -> String {
        let key = context + "\u{04}" + msgid
        let translated = key.withCString { String(cString: dgettext(gettextDomain, $0)) }
        // Untranslated, gettext hands back the key itself, context and all.
        return translated == key ? msgid : translated
    }

    /// Translates a literal with `{}` placeholders, then fills them in order.
    public static func format(_ msgid: String, _ args: CustomStringConvertible...) -> String {
        fill(tr(msgid), args)
    }

    /// Chooses the singular or plural form for `count` and fills `{}` placeholders
    /// (the first placeholder is `count` unless other arguments are given).
    public static func plural(_ singular: String, _ plural: String, _ count: Int,
                              _ args: CustomStringConvertible...) -> String {
        let text = singular.withCString { one in
            plural.withCString { many in
                String(cString: dngettext(gettextDomain, one, many, UInt(max(count, 0))))
            }
        }
        return fill(text, args.isEmpty ? [count] : args)
    }

    /// Replaces each `{}` in `template`, in order, with the next argument.
    /// Byte by byte: Foundation's `range(of:)` is a locale-aware search, and this runs for
    /// every formatted string, some for every report heard.
    static func fill(_ template: String, _ args: [CustomStringConvertible]) -> String {
        let utf8 = template.utf8
        var result = ""
        var iterator = args.makeIterator()
        var start = utf8.startIndex
        var i = start
        while i != utf8.endIndex {
            let next = utf8.index(after: i)
            if utf8[i] == UInt8(ascii: "{"), next != utf8.endIndex, utf8[next] == UInt8(ascii: "}") {
                result += template[start..<i]
                result += iterator.next()?.description ?? "{}"
                i = utf8.index(after: next)
                start = i
            } else {
                i = next
            }
        }
        return result + template[start...]
    }
}
