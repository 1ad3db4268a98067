// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio
import XCTest
@testable import Bluetooth

/// DBusValue against real GLib GVariants: what we build must print as GLib's own
/// text form, and what GLib parses must read back as the same Swift value.
final class DBusValueTests: XCTestCase {
    /// Builds the GVariant, sinks it, and returns GLib's typed text for it.
    private func printed(_ value: DBusValue) throws -> String {
        let variant = g_variant_ref_sink(try value.makeGVariant())!
        defer { g_variant_unref(variant) }
        let text = g_variant_print(variant, 1)!
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Parses GLib's text form and reads it back.
    private func parsed(_ text: String, type: String? = nil) throws -> DBusValue {
        var error: UnsafeMutablePointer<GError>?
        let gtype: OpaquePointer? = type.flatMap { g_variant_type_new($0) }
        defer { if let gtype { g_variant_type_free(gtype) } }
        guard let variant = g_variant_parse(gtype, text, nil, nil, &error) else {
            defer { g_error_free(error) }
            throw NSError(domain: "parse", code: 0, userInfo: [NSLocalizedDescriptionKey: String(cString: error!.pointee.message)])
        }
        g_variant_ref_sink(variant)
        defer { g_variant_unref(variant) }
        return try DBusValue(gvariant: variant)
    }

    func testBasicTypesRoundTrip() throws {
        let values: [DBusValue] = [
            .bool(true), .byte(200), .int16(-42), .uint16(0x004C), .int32(-7), .uint32(7),
            .int64(-1 << 40), .uint64(1 << 63), .double(2.5), .string("Grüße"),
            .objectPath("/org/bluez/hci0/dev_C0_98_E5_49_00_01"), .signature("a{sv}"),
        ]
        for value in values {
            let text = try printed(value)
            XCTAssertEqual(try parsed(text), value, text)
        }
        XCTAssertEqual(try printed(.int16(-42)), "int16 -42")
        XCTAssertEqual(try printed(.objectPath("/org/bluez")), "objectpath '/org/bluez'")
    }

    func testBytesAreAyBothWays() throws {
        XCTAssertEqual(try printed(.bytes([1, 2, 0xFF])), "[byte 0x01, 0x02, 0xff]")
        XCTAssertEqual(try parsed("[byte 0x01, 0x02, 0xff]"), .bytes([1, 2, 0xFF]))
        XCTAssertEqual(try printed(.bytes([])), "@ay []")
        XCTAssertEqual(try parsed("@ay []"), .bytes([]))
    }

    func testBlueZDevicePropertiesReadTyped() throws {
        // The shape GetManagedObjects returns: a{oa{sa{sv}}}.
        let text = """
        @a{oa{sa{sv}}} {objectpath '/org/bluez/hci0/dev_C0_98_E5_49_00_01': {'org.bluez.Device1': \
        {'Address': <'C0:98:E5:49:00:01'>, 'RSSI': <int16 -60>, 'UUIDs': <['0000180f-0000-1000-8000-00805f9b34fb']>, \
        'ManufacturerData': <{uint16 0x0059: <[byte 1, 2]>}>}}}
        """
        let objects = try parsed(text)
        XCTAssertEqual(objects.signature, "a{oa{sa{sv}}}")
        let device = try XCTUnwrap(objects.stringKeyed?["/org/bluez/hci0/dev_C0_98_E5_49_00_01"]?
            .stringKeyed?["org.bluez.Device1"]?.stringKeyed)
        XCTAssertEqual(device["Address"], .string("C0:98:E5:49:00:01"))
        XCTAssertEqual(device["RSSI"], .int16(-60))
        XCTAssertEqual(device["UUIDs"], .array(elementType: "s", [.string("0000180f-0000-1000-8000-00805f9b34fb")]))
        guard case .dictionary("q", "v", let entries) = device["ManufacturerData"] else {
            return XCTFail("ManufacturerData is \(String(describing: device["ManufacturerData"]))")
        }
        XCTAssertEqual(entries, [.init(.uint16(0x0059), .variant(.bytes([1, 2])))])
        // And the whole tree survives the way back to GLib unchanged.
        XCTAssertEqual(try parsed(try printed(objects)), objects)
    }

    func testVardictAndTupleBuildWhatBlueZExpects() throws {
        let filter = DBusValue.tuple([.vardict(["Transport": .string("le"), "DuplicateData": .bool(false)])])
        XCTAssertEqual(filter.signature, "(a{sv})")
        XCTAssertEqual(try printed(filter), "({'DuplicateData': <false>, 'Transport': <'le'>},)")
        XCTAssertEqual(try printed(.vardict([:])), "@a{sv} {}")
        XCTAssertEqual(try printed(.array(elementType: "o", [])), "@ao []")
    }

    func testBadInputIsAClearErrorNotATrap() {
        let bad: [DBusValue] = [
            .objectPath("not a path"),
            .signature("a{"),
            .string("nul\u{0}inside"),
            .array(elementType: "s", [.string("ok"), .int32(1)]),
            .array(elementType: "{", []),
            .dictionary(keyType: "s", valueType: "v", [.init(.string("k"), .int32(1))]),
            .dictionary(keyType: "as", valueType: "v", []),
            // The bad item sits deep inside; the good siblings built before it must be freed, not leaked.
            .tuple([.string("a"), .array(elementType: "o", [.objectPath("/ok"), .objectPath("bad")])]),
        ]
        for value in bad {
            XCTAssertThrowsError(try value.makeGVariant(), "\(value)") { error in
                guard case DBusError.invalidValue(let text) = error else { return XCTFail("\(error)") }
                XCTAssertFalse(text.isEmpty)
            }
        }
    }

    func testBlueZErrorNamesMapToCases() {
        XCTAssertEqual(DBusError(name: "org.bluez.Error.InProgress", detail: "x"), .inProgress)
        XCTAssertEqual(DBusError(name: "org.bluez.Error.NotReady", detail: ""), .notReady)
        XCTAssertEqual(DBusError(name: "org.bluez.Error.Failed", detail: "Operation failed"), .failed("Operation failed"))
        XCTAssertEqual(DBusError(name: "org.bluez.Error.NotAuthorized", detail: ""), .notAuthorized)
        XCTAssertEqual(DBusError(name: "org.bluez.Error.NotPermitted", detail: ""), .notPermitted)
        XCTAssertEqual(DBusError(name: "org.bluez.Error.AlreadyConnected", detail: ""), .alreadyConnected)
        XCTAssertEqual(DBusError(name: "org.bluez.Error.DoesNotExist", detail: ""), .doesNotExist)
        XCTAssertEqual(DBusError(name: "org.freedesktop.DBus.Error.UnknownObject", detail: ""), .doesNotExist)
        XCTAssertEqual(DBusError(name: "org.bluez.Error.InvalidArguments", detail: ""), .invalidArguments)
        XCTAssertEqual(DBusError(name: "org.bluez.Error.NotSupported", detail: ""), .notSupported)
        let other = DBusError(name: "org.example.Odd", detail: "strange")
        XCTAssertEqual(other, .other(name: "org.example.Odd", detail: "strange"))
        XCTAssertTrue(other.message.contains("org.example.Odd") && other.message.contains("strange"), other.message)
        XCTAssertTrue(DBusError.failed("Operation failed").message.contains("Operation failed"))
    }
}
