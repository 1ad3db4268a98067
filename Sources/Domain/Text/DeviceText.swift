// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The one rule for text a device sent (names, manufacturer strings, values shown as text).
///
/// Anyone nearby can program a device, so its text is hostile: it may hold control codes that
/// break a row or reach a terminal, bidi overrides that reorder the words around it, or bytes
/// that are not UTF-8. Markup is not this type's business: the toolkit layer never reads
/// device text as markup.
///
/// What is stored stays as received; this is applied on the way to an output.
public enum DeviceText {
    /// FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (Unicode UAX #9, §2.7).
    static let isolateStart: Unicode.Scalar = "\u{2068}"
    static let isolateEnd: Unicode.Scalar = "\u{2069}"

    /// `text` with every control character shown as a visible symbol: C0 as its Control
    /// Pictures symbol (U+2400–U+241F, so a newline reads "␊"), DEL as "␡", and C1 as U+FFFD,
    /// which has no symbol of its own.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(visible(scalar)) }
        return String(out)
    }

    /// `bytes` as text: invalid UTF-8 becomes U+FFFD, then `shown`. A NUL ends the text, as
    /// the name fields of advertising data are sometimes padded with zeros.
    public static func shown(bytes: [UInt8]) -> String {
        shown(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
    }

    /// `bytes` in hex ("52 26 FF") when they are not valid UTF-8, so the detail page can say
    /// what the replacement characters stand for; nil when they are valid.
    public static func invalidBytes(_ bytes: [UInt8]) -> String? {
        let text = bytes.prefix { $0 != 0 }
        if String(validating: text, as: UTF8.self) != nil { return nil }
        return Hex.spaced(text)
    }

    /// `text` shown, and wrapped in Unicode isolates so that, put inside a sentence, it cannot
    /// reorder the words around it however its own direction runs.
    public static func isolated(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append(isolateStart)
        out.append(contentsOf: shown(text).unicodeScalars)
        out.append(isolateEnd)
        return String(out)
    }

    /// `text` for one cell of a terminal table: control characters as C escapes (`\n`,
    /// `\x1b`), and isolated, so no byte a device sent moves the cursor, rings the bell or
    /// reorders the columns beside it.
    public static func terminal(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            case _ where isControl(scalar) || isBidiControl(scalar):
                let h = String(scalar.value, radix: 16)
                out += scalar.value <= 0xFF ? "\\x" + (h.count < 2 ? "0" + h : h) : "\\u{" + h + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        // Right-to-left letters are kept, and isolated so a terminal that runs bidi keeps them in their cell.
        guard text.unicodeScalars.contains(where: isRightToLeft) else { return out }
        return String(isolateStart) + out + String(isolateEnd)
    }

    /// Letters of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and the like).
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// C0, DEL and C1 control characters.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The explicit bidi formatting characters (embeddings, overrides, isolates, marks).
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0..<0x20: return Unicode.Scalar(0x2400 + scalar.value)!
        case 0x7F: return "\u{2421}"
        case 0x80...0x9F: return "\u{FFFD}"
        default: return scalar
        }
    }
}
