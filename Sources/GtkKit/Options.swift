// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// What a command-line option takes.
public enum OptionArgument: Sendable {
    /// Nothing: the option is a flag.
    case flag
    /// A string (also for numbers: GApplication drops integer options equal to 0).
    case string
    /// A string that may be given more than once.
    case strings

    var gtk: GOptionArg {
        switch self {
        case .flag: return G_OPTION_ARG_NONE
        case .string: return G_OPTION_ARG_STRING
        case .strings: return G_OPTION_ARG_STRING_ARRAY
        }
    }
}

/// Parsed command-line option values.
public struct OptionValues {
    let dict: UnsafeMutablePointer<GVariantDict>

    /// The string given for `name`, if the option was used.
    public func string(_ name: String) -> String? {
        g_variant_dict_lookup_value(dict, name, nil).map { variant in
            defer { g_variant_unref(variant) }
            return String(cString: g_variant_get_string(variant, nil))
        }
    }

    /// Every string given for `name`, in order; empty if the option was not used.
    public func strings(_ name: String) -> [String] {
        guard let variant = g_variant_dict_lookup_value(dict, name, nil) else { return [] }
        defer { g_variant_unref(variant) }
        var count: Int = 0
        guard let array = g_variant_get_strv(variant, &count) else { return [] }
        defer { g_free(UnsafeMutableRawPointer(mutating: array)) }
        return (0..<count).compactMap { array[$0].map { String(cString: $0) } }
    }

    /// Whether a flag option was given.
    public func flag(_ name: String) -> Bool {
        g_variant_dict_contains(dict, name) != 0
    }
}
