// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio
import Localization

/// One D-Bus value as BlueZ sends and expects it, in Swift terms.
///
/// Containers carry their element types so that empty arrays and dictionaries
/// still have a D-Bus signature.
public indirect enum DBusValue: Equatable, Sendable {
    case bool(Bool)
    case byte(UInt8)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `h`: the index of a file descriptor in the message's list (BlueZ's AcquireWrite and
    /// AcquireNotify answer with a socket).
    case fileDescriptor(Int32)
    /// `ay`, kept apart from `array` because BlueZ uses it for every payload.
    case bytes([UInt8])
    /// `a<elementType>`; every item must have that signature.
    case array(elementType: String, [DBusValue])
    /// `a{<keyType><valueType>}`, in the order the peer sent it.
    case dictionary(keyType: String, valueType: String, [DictEntry])
    case variant(DBusValue)
    case tuple([DBusValue])

    public struct DictEntry: Equatable, Sendable {
        public var key: DBusValue
        public var value: DBusValue
        public init(_ key: DBusValue, _ value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// An `a{sv}` property map, keys sorted so the same map always encodes the same way.
    public static func vardict(_ properties: [String: DBusValue]) -> DBusValue {
        .dictionary(keyType: "s", valueType: "v",
                    properties.keys.sorted().map { DictEntry(.string($0), .variant(properties[$0]!)) })
    }

    /// The D-Bus type signature of this value.
    public var signature: String {
        switch self {
        case .bool: "b"
        case .byte: "y"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .fileDescriptor: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .variant: "v"
        case .tuple(let items): "(" + items.map(\.signature).joined() + ")"
        }
    }

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var stringValue: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    /// The items of an array or tuple; `ay` comes back as bytes.
    public var items: [DBusValue]? {
        switch unwrapped {
        case .array(_, let items), .tuple(let items): items
        case .bytes(let bytes): bytes.map { .byte($0) }
        default: nil
        }
    }

    /// A dictionary with string or object-path keys, values as sent (variants unwrapped).
    public var stringKeyed: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            result[key] = entry.value.unwrapped
        }
        return result
    }
}

// MARK: - GVariant

extension DBusValue {
    /// A new floating GVariant. GVariant containers and g_dbus_connection_call take
    /// floating references, so callers that keep the value must sink it themselves.
    func makeGVariant() throws(DBusError) -> OpaquePointer {
        switch self {
        case .bool(let v): return g_variant_new_boolean(v ? 1 : 0)
        case .byte(let v): return g_variant_new_byte(v)
        case .int16(let v): return g_variant_new_int16(v)
        case .uint16(let v): return g_variant_new_uint16(v)
        case .int32(let v): return g_variant_new_int32(v)
        case .fileDescriptor(let v): return g_variant_new_handle(v)
        case .uint32(let v): return g_variant_new_uint32(v)
        case .int64(let v): return g_variant_new_int64(gint64(v))
        case .uint64(let v): return g_variant_new_uint64(guint64(v))
        case .double(let v): return g_variant_new_double(v)
        case .string(let v):
            // GVariant strings cannot hold NUL; GLib would assert.
            guard !v.utf8.contains(0) else { throw .invalidValue(L10n.tr("A text value contains a NUL character.")) }
            return g_variant_new_string(v)
        case .objectPath(let v):
            guard g_variant_is_object_path(v) != 0 else {
                throw .invalidValue(L10n.format("“{}” is not a valid D-Bus object path.", v))
            }
            return g_variant_new_object_path(v)
        case .signature(let v):
            guard g_variant_is_signature(v) != 0 else {
                throw .invalidValue(L10n.format("“{}” is not a valid D-Bus signature.", v))
            }
            return g_variant_new_signature(v)
        case .bytes(let bytes):
            return try Self.withType("y") { type in
                bytes.withUnsafeBytes { g_variant_new_fixed_array(type, $0.baseAddress, gsize(bytes.count), 1) }
            }
        case .array(let element, let items):
            guard items.allSatisfy({ $0.signature == element }) else {
                throw .invalidValue(L10n.format("An array of type “{}” holds an item of another type.", element))
            }
            let children = try Self.makeChildren(items)
            return try Self.withType(element) { type in
                children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize(children.count)) }
            }
        case .dictionary(let keyType, let valueType, let entries):
            // Keys must be one basic type, or GLib asserts.
            guard keyType.count == 1, "bynqiuxtdsog".contains(keyType),
                  entries.allSatisfy({ $0.key.signature == keyType && $0.value.signature == valueType }) else {
                throw .invalidValue(L10n.format("A dictionary of type “{}” holds an entry of another type.",
                                                "a{" + keyType + valueType + "}"))
            }
            var children: [OpaquePointer?] = []
            for entry in entries {
                let key = try entry.key.makeGVariant()
                let value: OpaquePointer
                do { value = try entry.value.makeGVariant() } catch {
                    Self.release([key])
                    throw error
                }
                children.append(g_variant_new_dict_entry(key, value))
            }
            do {
                return try Self.withType("{" + keyType + valueType + "}") { type in
                    children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize(children.count)) }
                }
            } catch {
                Self.release(children)
                throw error
            }
        case .variant(let inner):
            return g_variant_new_variant(try inner.makeGVariant())
        case .tuple(let items):
            let children = try Self.makeChildren(items)
            return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize(children.count)) }
        }
    }

    /// Reads a GVariant without taking ownership of it.
    init(gvariant value: OpaquePointer) throws(DBusError) {
        let type = String(cString: g_variant_get_type_string(value))
        switch type.first {
        case "b": self = .bool(g_variant_get_boolean(value) != 0)
        case "y": self = .byte(g_variant_get_byte(value))
        case "n": self = .int16(g_variant_get_int16(value))
        case "q": self = .uint16(g_variant_get_uint16(value))
        case "i": self = .int32(g_variant_get_int32(value))
        case "h": self = .fileDescriptor(g_variant_get_handle(value))
        case "u": self = .uint32(g_variant_get_uint32(value))
        case "x": self = .int64(Int64(g_variant_get_int64(value)))
        case "t": self = .uint64(UInt64(g_variant_get_uint64(value)))
        case "d": self = .double(g_variant_get_double(value))
        case "s": self = .string(String(cString: g_variant_get_string(value, nil)))
        case "o": self = .objectPath(String(cString: g_variant_get_string(value, nil)))
        case "g": self = .signature(String(cString: g_variant_get_string(value, nil)))
        case "v":
            let inner = g_variant_get_variant(value)!
            defer { g_variant_unref(inner) }
            self = .variant(try DBusValue(gvariant: inner))
        case "(":
            self = .tuple(try Self.children(of: value))
        case "a" where type == "ay":
            var count: gsize = 0
            let base = g_variant_get_fixed_array(value, &count, 1)
            self = .bytes(count == 0 ? [] : Array(UnsafeRawBufferPointer(start: base, count: Int(count))))
        case "a" where type.hasPrefix("a{"):
            // Key types are always one basic character; the value type is the rest.
            let inner = type.dropFirst(2).dropLast()
            let keyType = String(inner.prefix(1)), valueType = String(inner.dropFirst())
            var entries: [DictEntry] = []
            for entry in try Self.children(of: value) {
                guard case .tuple(let pair) = entry, pair.count == 2 else {
                    throw .invalidValue(L10n.format("The D-Bus type “{}” is not supported.", type))
                }
                entries.append(DictEntry(pair[0], pair[1]))
            }
            self = .dictionary(keyType: keyType, valueType: valueType, entries)
        case "a":
            self = .array(elementType: String(type.dropFirst()), try Self.children(of: value))
        case "{":
            // Only reached from inside a dictionary; read as a pair.
            self = .tuple(try Self.children(of: value))
        default:
            throw .invalidValue(L10n.format("The D-Bus type “{}” is not supported.", type))
        }
    }

    private static func children(of value: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var result: [DBusValue] = []
        let count = g_variant_n_children(value)
        result.reserveCapacity(Int(count))
        for index in 0..<count {
            let child = g_variant_get_child_value(value, index)!
            defer { g_variant_unref(child) }
            result.append(try DBusValue(gvariant: child))
        }
        return result
    }

    private static func makeChildren(_ items: [DBusValue]) throws(DBusError) -> [OpaquePointer?] {
        var children: [OpaquePointer?] = []
        for item in items {
            do { children.append(try item.makeGVariant()) } catch {
                release(children)
                throw error
            }
        }
        return children
    }

    /// Drops floating children that never made it into a container.
    private static func release(_ values: [OpaquePointer?]) {
        for value in values { g_variant_unref(g_variant_ref_sink(value)) }
    }

    private static func withType(_ signature: String, _ body: (OpaquePointer?) -> OpaquePointer?) throws(DBusError) -> OpaquePointer {
        guard g_variant_type_string_is_valid(signature) != 0 else {
            throw .invalidValue(L10n.format("“{}” is not a valid D-Bus signature.", signature))
        }
        let type = g_variant_type_new(signature)
        defer { g_variant_type_free(type) }
        return body(type)!
    }
}
