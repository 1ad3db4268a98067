// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GSettings object for one schema, looked up in extra directories as well as the system ones.
///
/// An installed FavBlue may live in any prefix, and a development build keeps its
/// compiled schema next to the binary, so the schema is searched there first.
@MainActor
public final class Settings: GObjectRef {
    private var settings: UnsafeMutablePointer<GSettings> { gcast(object) }

    /// Opens `schemaID`, or returns nil (never aborts) when no directory has it.
    public init?(schemaID: String, extraDirectories: [String]) {
        var source: OpaquePointer? = g_settings_schema_source_get_default().map { g_settings_schema_source_ref($0) }
        for directory in extraDirectories {
            var error: UnsafeMutablePointer<GError>?
            if let chained = g_settings_schema_source_new_from_directory(directory, source, 0, &error) {
                if let source { g_settings_schema_source_unref(source) }
                source = chained
            } else {
                g_clear_error(&error)
            }
        }
        guard let source else { return nil }
        defer { g_settings_schema_source_unref(source) }
        guard let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        super.init(adopting: UnsafeMutableRawPointer(g_settings_new_full(schema, nil, nil)))
    }

    /// An integer key.
    public func int(_ key: String) -> Int32 { g_settings_get_int(settings, key) }

    /// Writes an integer key.
    public func set(_ key: String, int value: Int32) { g_settings_set_int(settings, key, value) }

    /// An unsigned integer key.
    public func uint(_ key: String) -> UInt32 { g_settings_get_uint(settings, key) }

    /// Writes an unsigned integer key.
    public func set(_ key: String, uint value: UInt32) { g_settings_set_uint(settings, key, value) }

    /// A boolean key.
    public func bool(_ key: String) -> Bool { g_settings_get_boolean(settings, key) != 0 }

    /// Writes a boolean key.
    public func set(_ key: String, bool value: Bool) { g_settings_set_boolean(settings, key, value ? 1 : 0) }

    /// A string key.
    public func string(_ key: String) -> String {
        let value = g_settings_get_string(settings, key)!
        defer { g_free(value) }
        return String(cString: value)
    }

    /// Writes a string key.
    public func set(_ key: String, string value: String) { _ = g_settings_set_string(settings, key, value) }

    /// A string-array key.
    public func strings(_ key: String) -> [String] {
        guard let array = g_settings_get_strv(settings, key) else { return [] }
        defer { g_strfreev(array) }
        var out: [String] = []
        var i = 0
        while let item = array[i] {
            out.append(String(cString: item))
            i += 1
        }
        return out
    }

    /// Writes a string-array key.
    public func set(_ key: String, strings value: [String]) {
        var copies = value.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        copies.append(nil)
        copies.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                _ = g_settings_set_strv(settings, key, $0)
            }
        }
    }

    /// Runs `handler` when `key` changes, from this process or another.
    public func onChanged(_ key: String, _ handler: @escaping () -> Void) {
        connect("changed::\(key)") { _ in handler() }
    }
}
