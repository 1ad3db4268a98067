// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Dates, times, ages and numbers as the user's locale writes them.
///
/// Foundation on Linux does not read the POSIX locale variables (its current locale is
/// always "en_001"), so the locale is taken from them here, as glibc would: LC_ALL, then
/// the category's own variable, then LANG. When those say only "C", the first language
/// of LANGUAGE (the one gettext shows the interface in) decides, so German text never
/// comes with English dates.
public enum Formats {
    /// The locale for dates and times.
    public static let timeLocale = locale(for: "LC_TIME", environment: ProcessInfo.processInfo.environment)
    /// The locale for numbers.
    public static let numberLocale = locale(for: "LC_NUMERIC", environment: ProcessInfo.processInfo.environment)

    /// Whether the locale measures in US customary units, by glibc's own answer for
    /// LC_MEASUREMENT (`_NL_MEASUREMENT_MEASUREMENT` is 2): "C" is metric, and so is a locale
    /// that is not installed, as glibc falls back to "C" for it.
    public static func measuresInUSUnits(environment: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_MEASUREMENT", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        guard let locale = newlocale(LC_MEASUREMENT_MASK, name, nil) else { return false }
        defer { freelocale(locale) }
        guard let answer = nl_langinfo_l(nl_item(_NL_MEASUREMENT_MEASUREMENT), locale) else { return false }
        return answer[0] == 2
    }

    /// The locale a POSIX category resolves to in `environment`.
    public static func locale(for category: String, environment: [String: String]) -> Locale {
        for key in ["LC_ALL", category, "LANG"] {
            if let value = environment[key], !value.isEmpty {
                if let identifier = identifier(posix: value) { return Locale(identifier: identifier) }
                break
            }
        }
        let language = environment["LANGUAGE"]?.split(separator: ":").first.map(String.init)
        return Locale(identifier: language.flatMap { identifier(posix: $0) } ?? "en_US")
    }

    /// "de_DE.UTF-8@euro" → "de_DE"; nil for "C" and "POSIX", which name no language.
    static func identifier(posix: String) -> String? {
        let base = posix.split(separator: ".").first.map(String.init) ?? posix
        let name = base.split(separator: "@").first.map(String.init) ?? base
        return name.isEmpty || name == "C" || name == "POSIX" ? nil : name
    }

    private static let dateTimeFormatter = formatter(date: .medium, time: .short)
    private static let timeFormatter = formatter(date: .none, time: .short)
    private static let dateFormatter = formatter(date: .medium, time: .none)

    /// A formatter of the locale's own order for the fields `template` names ("EEEjjmm").
    private static func formatter(template: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = timeLocale
        f.setLocalizedDateFormatFromTemplate(template)
        return f
    }

    private static func formatter(date: DateFormatter.Style, time: DateFormatter.Style,
                                  locale: Locale = timeLocale) -> DateFormatter {
        let f = DateFormatter()
        f.locale = locale
        f.dateStyle = date
        f.timeStyle = time
        return f
    }

    /// "23.11.2026, 14:09" in German, "Nov 23, 2026 at 2:09 PM" in American English.
    public static func dateTime(_ date: Date) -> String { dateTimeFormatter.string(from: date) }

    /// The one rule for a moment: "Just now" under a minute, relative under an hour ("4 min
    /// ago"), otherwise the locale's date and time.
    public static func moment(_ date: Date, now: Date = Date()) -> String {
        let seconds = now.timeIntervalSince(date)
        guard seconds >= -1, seconds < 3600 else { return dateTime(date) }
        if isJustNow(seconds) { return L10n.tr("Just now") }
        return L10n.format("{} ago", age(seconds: seconds))
    }

    /// Whether a moment `seconds` ago reads "Just now": under a minute (and the clock's own
    /// second of skew the other way).
    public static func isJustNow(_ seconds: Double) -> Bool { seconds >= -1 && seconds < 60 }

    /// "14:09" or "2:09 PM".
    public static func time(_ date: Date) -> String { timeFormatter.string(from: date) }

    /// "14:09:05" or "2:09:05 PM": a time to the second, in the locale's order.
    public static func timeWithSeconds(_ date: Date) -> String { secondsFormatter.string(from: date) }

    private static let secondsFormatter = formatter(template: "jjmmss")

    /// "14:09:05.250" or "2:09:05.250 PM": a time to the millisecond, in the locale's order.
    public static func preciseTime(_ date: Date) -> String { preciseTimeFormatter.string(from: date) }

    private static let preciseTimeFormatter = formatter(template: "jjmmssSSS")

    /// "23.11.2026" or "Nov 23, 2026".
    public static func date(_ date: Date) -> String { dateFormatter.string(from: date) }

    /// "Mo., 14:09" or "Mon 2:09 PM": a moment within a week, in the locale's order.
    public static func weekdayTime(_ date: Date) -> String { weekdayTimeFormatter.string(from: date) }

    /// "22. Nov." or "Nov 22": a day within the year.
    public static func dayAndMonth(_ date: Date) -> String { dayAndMonthFormatter.string(from: date) }

    private static let dayAndMonthFormatter = formatter(template: "MMMd")

    private static let weekdayTimeFormatter = formatter(template: "EEEjjmm")

    /// The same, in an explicit locale and time zone (for tests).
    public static func dateTime(_ date: Date, locale: Locale, timeZone: TimeZone) -> String {
        let f = formatter(date: .medium, time: .short, locale: locale)
        f.timeZone = timeZone
        return f.string(from: date)
    }

    /// A whole number with the locale's grouping and a true minus sign (U+2212): "−1.234".
    public static func number(_ value: Int) -> String {
        numberFormatter.string(from: NSNumber(value: value)) ?? String(value)
    }

    /// The same, in an explicit locale (for tests).
    public static func number(_ value: Int, locale: Locale) -> String {
        makeNumberFormatter(locale).string(from: NSNumber(value: value)) ?? String(value)
    }

    /// The whole number in `text` as a user types it in the locale: with or without its
    /// grouping ("10.000" in German, "10,000" in English), with a hyphen or a true minus sign;
    /// nil for anything else.
    public static func wholeNumber(in text: String) -> Int? {
        wholeNumber(in: text, locale: numberLocale)
    }

    /// The same, in an explicit locale (for tests).
    public static func wholeNumber(in text: String, locale: Locale) -> Int? {
        let grouping = makeNumberFormatter(locale).groupingSeparator ?? ","
        var plain = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{2212}", with: "-")
        for separator in Set([grouping, "\u{00A0}", "\u{202F}", " "]) where !separator.isEmpty {
            plain = plain.replacingOccurrences(of: separator, with: "")
        }
        return Int(plain)
    }

    /// A size in bytes as people read it, in binary units: "512 bytes", "1.5 KiB", "512 KiB", "17.7 MiB".
    public static func bytes(_ count: Int) -> String {
        if count < 1024 { return L10n.plural("{} byte", "{} bytes", count, number(count)) }
        let units = [L10n.tr("{} KiB"), L10n.tr("{} MiB"), L10n.tr("{} GiB")]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // Two figures after the point are noise: one below ten, none above.
        return L10n.format(units[unit], decimal(value, digits: value < 10 ? 1 : 0))
    }

    /// A decimal with exactly `digits` fraction digits, the locale's separators and a true minus sign: "36,60".
    public static func decimal(_ value: Double, digits: Int) -> String {
        decimal(value, digits: digits, locale: numberLocale)
    }

    /// The same, in an explicit locale (for tests).
    public static func decimal(_ value: Double, digits: Int, locale: Locale) -> String {
        let f = makeNumberFormatter(locale)
        f.minimumFractionDigits = digits
        f.maximumFractionDigits = digits
        // Foundation on Linux ignores a maximum below the style's three and prints 70.52 for
        // one digit, so the figure is rounded before it is written.
        var scale = 1.0
        for _ in 0..<max(0, min(digits, 15)) { scale *= 10 }
        let rounded = value.isFinite ? (value * scale).rounded() / scale : value
        return f.string(from: NSNumber(value: rounded)) ?? String(rounded)
    }

    /// Made once: rows format their signal several times a second.
    private static let numberFormatter = makeNumberFormatter(numberLocale)

    private static func makeNumberFormatter(_ locale: Locale) -> NumberFormatter {
        let f = NumberFormatter()
        f.locale = locale
        f.numberStyle = .decimal
        f.minusSign = "\u{2212}"
        return f
    }

    /// How long ago, short and translated, for "Last heard {} ago": "40 s", "2 min", "3 h", "2 days".
    public static func age(seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.down)))
        switch s {
        case ..<60:
            // Translators: a short age in seconds, as used after "ago" ("vor 40 s").
            return L10n.format("{} s", s)
        case ..<3600:
            // Translators: a short age in minutes, as used after "ago" ("vor 2 Min.").
            return L10n.format("{} min", s / 60)
        case ..<86_400:
            // Translators: a short age in hours, as used after "ago" ("vor 3 Std.").
            return L10n.format("{} h", s / 3600)
        default:
            // Translators: an age in days, as used after "ago": German needs the dative ("vor 2 Tagen").
            return L10n.plural("{} day", "{} days", s / 86_400)
        }
    }
}
