// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// What a link offers the server's permission checks (Core v5.4, Vol 3, Part C, §10.3).
struct LinkSecurity: Equatable, Sendable {
    var encrypted = false
    /// The key was made with a code (MITM protection).
    var authenticated = false

    func satisfies(_ needed: AttributeSecurity) -> Bool {
        switch needed {
        case .none: return true
        case .encrypted: return encrypted
        case .authenticated: return encrypted && authenticated
        }
    }
}

/// What the server tells its owner a central did.
enum ATTServerNote: Equatable, Sendable {
    case mtu(Int)
    case read(ServedCharacteristicID)
    case wrote(ServedCharacteristicID, [UInt8], withResponse: Bool)
    case subscribed(ServedCharacteristicID, indicate: Bool)
    case unsubscribed(ServedCharacteristicID)
    case confirmed
    case refused(request: UInt8, handle: UInt16, ATTErrorCode)
}

/// The server side of one ATT bearer: it answers every request of the Core's ATT (Vol 3,
/// Part F, §3.4) from the shared database, checks each against the attribute's permissions and
/// the link's security, and keeps what belongs to the link (its MTU, its configurations, its
/// prepared writes). No threads: the owner hands in each PDU and sends what comes back.
/// A central is a stranger: every length is checked, and nothing it sends can trap.
struct ATTServer {
    /// What FavBlue's server can receive: the largest an LE L2CAP frame in one ATT PDU takes.
    static let serverMTU = 517
    /// Prepared writes one link may hold before Prepare Queue Full (0x09).
    static let queueLimit = 64

    let database: AttributeDatabase
    private(set) var mtu = 23
    private var mtuExchanged = false
    var security = LinkSecurity()
    /// The link's Client Characteristic Configuration values, by descriptor handle.
    private(set) var configurations: [UInt16: UInt16] = [:]
    private var prepared: [(handle: UInt16, offset: Int, value: [UInt8])] = []
    /// An indication awaits its confirmation (one at a time, §3.3.2).
    var awaitingConfirmation = false

    init(database: AttributeDatabase) { self.database = database }

    /// The answer to one PDU from the central (nil for commands and confirmations), and what to tell.
    mutating func receive(_ pdu: [UInt8]) -> (answer: [UInt8]?, notes: [ATTServerNote]) {
        guard let opcode = pdu.first else { return (nil, []) }
        var notes: [ATTServerNote] = []
        let answer = respond(opcode, Array(pdu.dropFirst()), &notes)
        return (answer, notes)
    }

    /// The link's configuration at `cccd`: bit 0 notifications, bit 1 indications (Vol 3, Part G, §3.3.3.3).
    func configuration(at cccd: UInt16) -> UInt16 { configurations[cccd] ?? 0 }

    // MARK: Requests

    private static func error(_ request: UInt8, _ handle: UInt16, _ code: ATTErrorCode) -> [UInt8] {
        ATTPDU.errorResponse(request: request, handle: handle, code: code).bytes
    }

    private static func u16(_ p: [UInt8], _ at: Int) -> UInt16 { UInt16(p[at]) | UInt16(p[at + 1]) << 8 }

    private mutating func respond(_ op: UInt8, _ p: [UInt8], _ notes: inout [ATTServerNote]) -> [UInt8]? {
        let le16 = HCICommand.le16
        func refuse(_ handle: UInt16, _ code: ATTErrorCode) -> [UInt8] {
            notes.append(.refused(request: op, handle: handle, code))
            return Self.error(op, handle, code)
        }
        switch op {
        case 0x02:  // Exchange MTU (§3.4.2.1)
            guard p.count == 2 else { return refuse(0, .invalidPDU) }
            // A client MTU below the default means the default (§3.4.2.2); a second exchange changes nothing.
            if !mtuExchanged {
                mtu = max(23, min(Int(Self.u16(p, 0)), Self.serverMTU))
                mtuExchanged = true
                notes.append(.mtu(mtu))
            }
            return [0x03] + le16(UInt16(Self.serverMTU))
        case 0x04:  // Find Information (§3.4.3.1)
            guard p.count == 4 else { return refuse(0, .invalidPDU) }
            let start = Self.u16(p, 0), end = Self.u16(p, 2)
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            let found = database.range(start, end)
            guard let first = found.first else { return refuse(start, .attributeNotFound) }
            let width = first.type.wire.count
            var out: [UInt8] = [0x05, width == 2 ? 1 : 2]
            for a in found where a.type.wire.count == width {
                guard out.count + 2 + width <= mtu else { break }
                out += le16(a.handle) + a.type.wire
            }
            return out
        case 0x06:  // Find By Type Value (§3.4.3.3)
            guard p.count >= 6 else { return refuse(0, .invalidPDU) }
            let start = Self.u16(p, 0), end = Self.u16(p, 2), type = AttributeUUID(Self.u16(p, 4)), value = Array(p[6...])
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            var out: [UInt8] = [0x07]
            for a in database.range(start, end) where a.type == type && a.value == value {
                guard out.count + 4 <= mtu else { break }
                let groupEnd: UInt16
                if case .service(let end) = a.role { groupEnd = end } else { groupEnd = a.handle }
                out += le16(a.handle) + le16(groupEnd)
            }
            return out.count > 1 ? out : refuse(start, .attributeNotFound)
        case 0x08:  // Read By Type (§3.4.4.1)
            guard p.count == 6 || p.count == 20, let type = AttributeUUID(wire: p[4...]) else { return refuse(0, .invalidPDU) }
            let start = Self.u16(p, 0), end = Self.u16(p, 2)
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            var out: [UInt8] = []
            var length = 0
            for a in database.range(start, end) where a.type == type {
                if let code = readRefusal(a) {
                    // The first match refused says why; a later one ends the list before it.
                    if out.isEmpty { return refuse(a.handle, code) }
                    break
                }
                let value = Array(readValue(a).prefix(min(mtu - 4, 253)))
                if out.isEmpty { length = 2 + value.count; out = [0x09, UInt8(length)] }
                guard 2 + value.count == length, out.count + length <= mtu else { break }
                out += le16(a.handle) + value
                if case .value(let id?) = a.role { notes.append(.read(id)) }
            }
            return out.isEmpty ? refuse(start, .attributeNotFound) : out
        case 0x0A:  // Read (§3.4.4.3)
            guard p.count == 2 else { return refuse(0, .invalidPDU) }
            let handle = Self.u16(p, 0)
            guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
            if let code = readRefusal(a) { return refuse(handle, code) }
            if case .value(let id?) = a.role { notes.append(.read(id)) }
            return [0x0B] + readValue(a).prefix(mtu - 1)
        case 0x0C:  // Read Blob (§3.4.4.5)
            guard p.count == 4 else { return refuse(0, .invalidPDU) }
            let handle = Self.u16(p, 0), offset = Int(Self.u16(p, 2))
            guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
            if let code = readRefusal(a) { return refuse(handle, code) }
            let value = readValue(a)
            guard offset <= value.count else { return refuse(handle, .invalidOffset) }
            return [0x0D] + value[offset...].prefix(mtu - 1)
        case 0x0E, 0x20:  // Read Multiple (§3.4.4.7) and Read Multiple Variable (§3.4.4.11)
            guard p.count >= 4, p.count % 2 == 0 else { return refuse(0, .invalidPDU) }
            var out: [UInt8] = [op + 1]
            for i in stride(from: 0, to: p.count, by: 2) {
                let handle = Self.u16(p, i)
                guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
                if let code = readRefusal(a) { return refuse(handle, code) }
                let value = readValue(a)
                out += op == 0x20 ? le16(UInt16(value.count)) + value : value
                if case .value(let id?) = a.role { notes.append(.read(id)) }
            }
            return Array(out.prefix(mtu))
        case 0x10:  // Read By Group Type (§3.4.4.9)
            guard p.count == 6 || p.count == 20, let type = AttributeUUID(wire: p[4...]) else { return refuse(0, .invalidPDU) }
            let start = Self.u16(p, 0), end = Self.u16(p, 2)
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            guard type == AttributeUUID(0x2800) || type == AttributeUUID(0x2801) else { return refuse(start, .unsupportedGroupType) }
            var out: [UInt8] = []
            var length = 0
            for a in database.range(start, end) where a.type == type {
                guard case .service(let groupEnd) = a.role else { continue }
                let value = Array(a.value.prefix(min(mtu - 6, 251)))
                if out.isEmpty { length = 4 + value.count; out = [0x11, UInt8(length)] }
                guard 4 + value.count == length, out.count + length <= mtu else { break }
                out += le16(a.handle) + le16(groupEnd) + value
            }
            return out.isEmpty ? refuse(start, .attributeNotFound) : out
        case 0x12, 0x52:  // Write Request (§3.4.5.1), Write Command (§3.4.5.3)
            guard p.count >= 2 else { return op == 0x12 ? refuse(0, .invalidPDU) : nil }
            let handle = Self.u16(p, 0), value = Array(p[2...])
            guard let a = database.attribute(handle) else { return op == 0x12 ? refuse(handle, .invalidHandle) : nil }
            if let code = writeRefusal(a, command: op == 0x52) ?? lengthRefusal(a, value.count) {
                return op == 0x12 ? refuse(handle, code) : nil
            }
            if let code = write(a, value, withResponse: op == 0x12, &notes) { return op == 0x12 ? refuse(handle, code) : nil }
            return op == 0x12 ? [0x13] : nil
        case 0x16:  // Prepare Write (§3.4.6.1)
            guard p.count >= 4 else { return refuse(0, .invalidPDU) }
            let handle = Self.u16(p, 0), offset = Int(Self.u16(p, 2)), value = Array(p[4...])
            guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
            if let code = writeRefusal(a, command: false) { return refuse(handle, code) }
            guard prepared.count < Self.queueLimit else { return refuse(handle, .other(0x09)) }
            prepared.append((handle, offset, value))
            return [0x17] + p
        case 0x18:  // Execute Write (§3.4.6.3)
            guard p.count == 1, p[0] <= 1 else { return refuse(0, .invalidPDU) }
            defer { prepared = [] }
            guard p[0] == 1 else { return [0x19] }
            // Every part is checked before any is written: all of them, or none (§3.4.6.3).
            var staged: [UInt16: [UInt8]] = [:]
            var order: [UInt16] = []
            for part in prepared {
                guard let a = database.attribute(part.handle) else { return refuse(part.handle, .invalidHandle) }
                var value = staged[part.handle] ?? a.value
                if staged[part.handle] == nil { order.append(part.handle) }
                guard part.offset <= value.count else { return refuse(part.handle, .invalidOffset) }
                value.replaceSubrange(part.offset..<min(value.count, part.offset + part.value.count), with: part.value)
                if let code = lengthRefusal(a, value.count) { return refuse(part.handle, code) }
                staged[part.handle] = value
            }
            for handle in order {
                guard let a = database.attribute(handle), let value = staged[handle] else { continue }
                if let code = write(a, value, withResponse: true, &notes) { return refuse(handle, code) }
            }
            return [0x19]
        case 0x1E:  // Handle Value Confirmation (§3.4.7.3)
            if awaitingConfirmation {
                awaitingConfirmation = false
                notes.append(.confirmed)
            }
            return nil
        case 0xD2:  // Signed Write Command: FavBlue keeps no signing keys, and a command gets no answer.
            return nil
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x1B, 0x1D, 0x21, 0x23:
            // Responses and server PDUs belong to FavBlue's client side; a server ignores them.
            return nil
        default:
            // A command (bit 6) unknown is ignored; a request unknown is answered (§3.4.1.1, §3.3.1).
            return op & 0x40 != 0 ? nil : refuse(0, .requestNotSupported)
        }
    }

    /// A configuration's value is the link's own; every other attribute's is the database's.
    private func readValue(_ a: ServedAttribute) -> [UInt8] {
        if case .configuration = a.role { return HCICommand.le16(configurations[a.handle] ?? 0) }
        return a.value
    }

    private func readRefusal(_ a: ServedAttribute) -> ATTErrorCode? {
        guard a.readable else { return .readNotPermitted }
        return securityRefusal(a.readSecurity)
    }

    private func writeRefusal(_ a: ServedAttribute, command: Bool) -> ATTErrorCode? {
        guard command ? a.writableWithoutResponse : a.writable else { return .writeNotPermitted }
        return securityRefusal(a.writeSecurity)
    }

    /// Encryption wanted on an open link, or a code-made key on a Just Works one (as BlueZ's gatt-server).
    private func securityRefusal(_ needed: AttributeSecurity) -> ATTErrorCode? {
        guard !security.satisfies(needed) else { return nil }
        return needed == .authenticated ? .insufficientAuthentication : .insufficientEncryption
    }

    private func lengthRefusal(_ a: ServedAttribute, _ length: Int) -> ATTErrorCode? {
        length > a.maximumLength ? .invalidAttributeValueLength : nil
    }

    /// Writes `value` to `a`, or says why not; a configuration is the link's, and checked.
    private mutating func write(_ a: ServedAttribute, _ value: [UInt8], withResponse: Bool, _ notes: inout [ATTServerNote]) -> ATTErrorCode? {
        switch a.role {
        case .configuration(let id, _, let properties):
            guard value.count == 2 else { return .invalidAttributeValueLength }
            let bits = UInt16(value[0]) | UInt16(value[1]) << 8
            // Bits the characteristic cannot do: the Core Supplement's Improperly Configured (0xFD).
            if bits & ~0x0003 != 0 || bits & 1 != 0 && !properties.contains(.notify) || bits & 2 != 0 && !properties.contains(.indicate) {
                return .other(0xFD)
            }
            let before = configurations[a.handle] ?? 0
            configurations[a.handle] = bits
            if let id, bits != before {
                notes.append(bits == 0 ? .unsubscribed(id) : .subscribed(id, indicate: bits & 2 != 0))
            }
        case .value(let id):
            database.setValue(value, at: a.handle)
            if let id { notes.append(.wrote(id, value, withResponse: withResponse)) }
        default:
            database.setValue(value, at: a.handle)
        }
        return nil
    }

    /// Drops what a link ends with: a new link to the same central starts afresh.
    mutating func reset() {
        configurations = [:]
        prepared = []
        awaitingConfirmation = false
    }
}
