// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// What a link must be before an attribute may be read or written (Core v5.4, Vol 3, Part C, §10.3).
public enum AttributeSecurity: String, Equatable, Sendable, CaseIterable, Comparable {
    /// Any link.
    case none
    /// An encrypted link.
    case encrypted
    /// An encrypted link whose key was made with a code (passkey or numeric comparison).
    case authenticated

    private var rank: Int { self == .none ? 0 : self == .encrypted ? 1 : 2 }
    public static func < (lhs: AttributeSecurity, rhs: AttributeSecurity) -> Bool { lhs.rank < rhs.rank }

    /// In the server editor's words.
    public var words: String {
        switch self {
        case .none: return L10n.ctx("attribute security", "Open")
        case .encrypted: return L10n.ctx("attribute security", "Encrypted")
        case .authenticated: return L10n.ctx("attribute security", "Paired with a Code")
        }
    }
}

/// A descriptor FavBlue serves other than the ones it makes itself (the Client Characteristic
/// Configuration, the User Description and the Presentation Format).
public struct ServedDescriptor: Equatable, Sendable {
    public var uuid: BluetoothUUID
    public var value: [UInt8]
    public var readable: Bool
    public var writable: Bool
    public var readSecurity: AttributeSecurity
    public var writeSecurity: AttributeSecurity
    /// Its handle, where the setup keeps one (a clone of a device); nil lets FavBlue number it.
    public var handle: UInt16?

    public init(uuid: BluetoothUUID, value: [UInt8] = [], readable: Bool = true, writable: Bool = false,
                readSecurity: AttributeSecurity = .none, writeSecurity: AttributeSecurity = .none, handle: UInt16? = nil) {
        self.uuid = uuid
        self.value = value
        self.readable = readable
        self.writable = writable
        self.readSecurity = readSecurity
        self.writeSecurity = writeSecurity
        self.handle = handle
    }
}

/// A characteristic FavBlue serves: its properties, the security each access needs, and its value.
public struct ServedCharacteristic: Equatable, Sendable {
    public var uuid: BluetoothUUID
    /// Read, write, write without response, notify, indicate (broadcast and signed write are kept if set).
    public var properties: GATTProperties
    public var readSecurity: AttributeSecurity
    public var writeSecurity: AttributeSecurity
    /// The value served now.
    public var value: [UInt8]
    /// The most a central may write, bytes (512 at most, Vol 3, Part F, §3.2.9).
    public var maximumLength: Int
    /// A Characteristic User Description (0x2901), readable.
    public var userDescription: String?
    /// A Characteristic Presentation Format (0x2904), readable; it also says how the value is typed.
    public var presentation: PresentationFormat?
    public var descriptors: [ServedDescriptor]
    /// The declaration's handle, where the setup keeps one; the value follows at handle + 1.
    public var handle: UInt16?
    /// The Client Characteristic Configuration's handle, where the setup keeps one.
    public var cccdHandle: UInt16?

    public init(uuid: BluetoothUUID, properties: GATTProperties, readSecurity: AttributeSecurity = .none,
                writeSecurity: AttributeSecurity = .none, value: [UInt8] = [], maximumLength: Int = 512,
                userDescription: String? = nil, presentation: PresentationFormat? = nil, descriptors: [ServedDescriptor] = [],
                handle: UInt16? = nil, cccdHandle: UInt16? = nil) {
        self.uuid = uuid
        self.properties = properties
        self.readSecurity = readSecurity
        self.writeSecurity = writeSecurity
        self.value = value
        self.maximumLength = maximumLength
        self.userDescription = userDescription
        self.presentation = presentation
        self.descriptors = descriptors
        self.handle = handle
        self.cccdHandle = cccdHandle
    }

    /// Whether it needs a Client Characteristic Configuration: FavBlue adds one itself.
    public var hasConfiguration: Bool { properties.contains(.notify) || properties.contains(.indicate) }

    /// How the value is typed in the editor: by its Presentation Format, else as text when it reads as text, else hex.
    public var inputFormat: ValueInputFormat {
        if presentation != nil { return ValueInputFormat(presentation: presentation) }
        if !value.isEmpty, let text = String(validating: value, as: UTF8.self),
           text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) { return .text }
        return value.isEmpty ? .text : .hex
    }
}

/// A service FavBlue serves.
public struct ServedService: Equatable, Sendable {
    public var uuid: BluetoothUUID
    /// Primary, or secondary (only reached through an include).
    public var primary: Bool
    public var characteristics: [ServedCharacteristic]
    /// The declaration's handle, where the setup keeps one.
    public var handle: UInt16?

    public init(uuid: BluetoothUUID, primary: Bool = true, characteristics: [ServedCharacteristic] = [], handle: UInt16? = nil) {
        self.uuid = uuid
        self.primary = primary
        self.characteristics = characteristics
        self.handle = handle
    }
}

/// A GATT server FavBlue runs: the name it goes by and its services. Generic Access (the
/// name and appearance) and Generic Attribute are added by whoever serves it, unless the
/// setup holds them itself (a clone).
public struct ServerSetup: Equatable, Sendable, Identifiable {
    public var id: String
    /// The GAP Device Name (0x2A00), and the name it advertises unless an advertisement says otherwise.
    public var name: String
    public var appearance: UInt16?
    public var services: [ServedService]

    public init(id: String = UUID().uuidString, name: String, appearance: UInt16? = nil, services: [ServedService] = []) {
        self.id = id
        self.name = name
        self.appearance = appearance
        self.services = services
    }

    /// Generic Access and Generic Attribute (Core v5.4, Vol 3, Part C, §12 and Part G, §7).
    public static let genericAccess = BluetoothUUID(0x1800)
    public static let genericAttribute = BluetoothUUID(0x1801)
    /// Client Characteristic Configuration, User Description, Presentation Format (Part G, §3.3.3).
    public static let configuration = BluetoothUUID(0x2902)
    public static let userDescription = BluetoothUUID(0x2901)
    public static let presentationFormat = BluetoothUUID(0x2904)

    /// Whether the setup brings its own Generic Access service (a clone).
    public var hasOwnGenericAccess: Bool { services.contains { $0.uuid == Self.genericAccess } }

    /// This setup with `other`'s services after its own, but for those it has already (by UUID).
    /// Its name and appearance stay; one with no appearance takes `other`'s.
    public func joining(_ other: ServerSetup) -> ServerSetup {
        var joined = self
        joined.appearance = appearance ?? other.appearance
        for service in other.services where !services.contains(where: { $0.uuid == service.uuid }) {
            // Handles a clone kept are the clone's own; joined services are numbered after them.
            var added = service
            added.handle = nil
            for c in added.characteristics.indices {
                added.characteristics[c].handle = nil
                added.characteristics[c].cccdHandle = nil
                for d in added.characteristics[c].descriptors.indices { added.characteristics[c].descriptors[d].handle = nil }
            }
            joined.services.append(added)
        }
        return joined
    }

    /// Whether `other` is this setup but for its id: taking it loses nothing.
    public func sameContent(as other: ServerSetup) -> Bool {
        name == other.name && appearance == other.appearance && services == other.services
    }

    /// Whether a central that connects finds `uuid` among the services.
    public func serves(_ uuid: BluetoothUUID) -> Bool {
        uuid == Self.genericAccess || uuid == Self.genericAttribute || services.contains { $0.uuid == uuid }
    }
}

extension PresentationFormat {
    /// The descriptor's seven bytes: format, exponent, unit, namespace 0x01 (Bluetooth SIG), description 0.
    public var bytes: [UInt8] {
        [format, UInt8(bitPattern: exponent), UInt8(unit & 0xFF), UInt8(unit >> 8), 0x01, 0x00, 0x00]
    }
}
