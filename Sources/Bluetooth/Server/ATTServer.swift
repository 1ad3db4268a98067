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
    /// The MTU this side announces: what it can receive in one PDU.
    let receiveMTU: Int
    private(set) var mtu = 23
    private var mtuExchanged = false
    var security = LinkSecurity()
    /// The link's Client Characteristic Configuration values, by descriptor handle.
    private(set) var configurations: [UInt16: UInt16] = [:]
    /// What the client said it supports (Client Supported Features, Vol 3, Part G, §7.2): robust
    /// caching, EATT, multiple handle value notifications.
    private(set) var clientFeatures: UInt8 = 0
    /// The Database Hash of the database the client last knew: this one at the start, a bonded
    /// client's from its last connection (robust caching, Vol 3, Part G, §2.5.2.1).
    private var knownHash: [UInt8]?
    /// A change-unaware client was answered Database Out Of Sync; its next request makes it aware.
    private var outOfSyncTold = false
    private var prepared: [(handle: UInt16, offset: Int, value: [UInt8])] = []
    /// An indication awaits its confirmation (one at a time, §3.3.2).
    var awaitingConfirmation = false

    init(database: AttributeDatabase, receiveMTU: Int = serverMTU) {
        self.database = database
        self.receiveMTU = receiveMTU
        knownHash = database.hash
    }

    /// This client's side as a bonded client's next link takes it back (`Memory`): its features,
    /// the database it knew, and each subscription with the characteristic it was for.
    var memory: Memory {
        let subscriptions = configurations.sorted { $0.key < $1.key }.compactMap { handle, bits -> Subscription? in
            guard bits != 0, case .configuration(_, let valueHandle, _)? = database.attribute(handle)?.role,
                  let type = database.attribute(valueHandle)?.type else { return nil }
            return Subscription(configuration: handle, valueHandle: valueHandle, type: type, bits: bits)
        }
        return Memory(features: clientFeatures, knownHash: knownHash, subscriptions: subscriptions)
    }

    /// A bonded client is back: its features as it set them, and the database it knew. Where
    /// that database is not this one and it caches robustly, it is change-unaware. Its
    /// subscriptions hold where the same characteristic is still at the same handles; returns
    /// them as notes.
    @discardableResult
    mutating func recall(_ memory: Memory) -> [ATTServerNote] {
        clientFeatures = memory.features
        knownHash = memory.knownHash
        outOfSyncTold = false
        var notes: [ATTServerNote] = []
        for kept in memory.subscriptions {
            guard case .configuration(let id, kept.valueHandle, let properties)? = database.attribute(kept.configuration)?.role,
                  database.attribute(kept.valueHandle)?.type == kept.type,
                  kept.bits & 1 == 0 || properties.contains(.notify), kept.bits & 2 == 0 || properties.contains(.indicate)
            else { continue }
            configurations[kept.configuration] = kept.bits
            if let id { notes.append(.subscribed(id, indicate: kept.bits & 2 != 0)) }
        }
        return notes
    }

    /// Whether the client knows the database as it is; one that does not cache robustly always does.
    var changeAware: Bool { clientFeatures & 1 == 0 || knownHash == database.hash }

    /// Whether the client last knew another database (a bonded client back after a change), so
    /// one that configured Service Changed is to be told (Vol 3, Part G, §7.1).
    var knewAnotherDatabase: Bool { knownHash != nil && database.hash != nil && knownHash != database.hash }

    /// The client confirmed Service Changed: it knows the database as it is now (§2.5.2.1).
    mutating func serviceChangedConfirmed() { becomeAware() }

    private mutating func becomeAware() {
        knownHash = database.hash
        outOfSyncTold = false
    }

    /// The answer to one PDU from the central (nil for commands and confirmations), and what to tell.
    mutating func receive(_ bytes: [UInt8]) -> (answer: [UInt8]?, notes: [ATTServerNote]) {
        guard let opcode = bytes.first else { return (nil, []) }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.decode(bytes)
        } catch {
            // A request whose fields do not fit its opcode is answered; anything else is dropped (§3.4.1.1).
            guard ATTPDU.requestOpcodes.contains(opcode) else { return (nil, []) }
            let code = ATTErrorCode.invalidPDU
            return (ATTPDU.errorResponse(request: opcode, handle: 0, code: code).bytes, [.refused(request: opcode, handle: 0, code)])
        }
        var notes: [ATTServerNote] = []
        let answer = respond(to: pdu, &notes)
        return (answer?.bytes, notes)
    }

    /// Takes the bearer's MTU where FavBlue's client side agreed it first: one bearer, one MTU.
    mutating func follow(mtu bearer: Int) {
        if !mtuExchanged { mtu = max(mtu, bearer) }
    }

    /// The link's configuration at `cccd`: bit 0 notifications, bit 1 indications (Vol 3, Part G, §3.3.3.3).
    func configuration(at cccd: UInt16) -> UInt16 { configurations[cccd] ?? 0 }

    // MARK: Requests

    /// The answer to one request, or nil for what gets none: commands, confirmations, and the
    /// PDUs a server receives only by mistake (a client's responses).
    mutating func respond(to pdu: ATTPDU, _ notes: inout [ATTServerNote]) -> ATTPDU? {
        func refuse(_ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
            notes.append(.refused(request: pdu.opcode, handle: handle, code))
            return .errorResponse(request: pdu.opcode, handle: handle, code: code)
        }
        // Discovery ends with Attribute Not Found past the last handle: an answer, not a refusal (Vol 3, Part G, §4).
        func found(_ start: UInt16) -> ATTPDU { .errorResponse(request: pdu.opcode, handle: start, code: .attributeNotFound) }
        if !changeAware {
            // A handle the client kept may name another attribute now: the first request on a
            // handle is told so, and the client is aware from its next request; discovery and a
            // read of the Database Hash go on; a command is dropped (§2.5.2.1).
            func told(_ handle: UInt16) -> ATTPDU? {
                guard outOfSyncTold else {
                    outOfSyncTold = true
                    return refuse(handle, .databaseOutOfSync)
                }
                becomeAware()
                return nil
            }
            switch pdu {
            case .readRequest(let handle), .readBlobRequest(let handle, _), .writeRequest(let handle, _),
                 .prepareWriteRequest(let handle, _, _):
                if let answer = told(handle) { return answer }
            case .readMultipleRequest(let handles), .readMultipleVariableRequest(let handles):
                if let answer = told(handles.first ?? 0) { return answer }
            case .writeCommand, .signedWriteCommand:
                return nil
            case .readByTypeRequest(_, _, let type) where type == AttributeDatabase.databaseHash:
                becomeAware()
            default:
                if outOfSyncTold, ATTPDU.requestOpcodes.contains(pdu.opcode) { becomeAware() }
            }
        }
        switch pdu {
        case .exchangeMTURequest(let theirs):  // §3.4.2.1
            // A client MTU below the default means the default (§3.4.2.2); a second exchange changes nothing.
            if !mtuExchanged {
                mtu = max(23, min(Int(theirs), receiveMTU))
                mtuExchanged = true
                notes.append(.mtu(mtu))
            }
            return .exchangeMTUResponse(mtu: UInt16(receiveMTU))
        case .findInformationRequest(let start, let end):  // §3.4.3.1
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            let attributes = database.range(start, end)
            guard let width = attributes.first?.type.attAsGiven.count else { return found(start) }
            var list: [HandleUUID] = []
            for a in attributes where a.type.attAsGiven.count == width {
                guard 2 + (list.count + 1) * (2 + width) <= mtu else { break }
                list.append(HandleUUID(handle: a.handle, uuid: a.type))
            }
            return .findInformationResponse(list)
        case .findByTypeValueRequest(let start, let end, let type, let value):  // §3.4.3.3
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            var list: [GroupValue] = []
            for a in database.range(start, end) where a.type == BluetoothUUID(type) && a.value == value {
                guard 1 + (list.count + 1) * 4 <= mtu else { break }
                let groupEnd: UInt16
                if case .service(let end) = a.role { groupEnd = end } else { groupEnd = a.handle }
                list.append(GroupValue(start: a.handle, end: groupEnd, value: []))
            }
            return list.isEmpty ? found(start) : .findByTypeValueResponse(list)
        case .readByTypeRequest(let start, let end, let type):  // §3.4.4.1
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            var list: [HandleValue] = []
            for a in database.range(start, end) where a.type == type {
                if let code = readRefusal(a) {
                    // The first match refused says why; a later one ends the list before it.
                    if list.isEmpty { return refuse(a.handle, code) }
                    break
                }
                let value = Array(readValue(a).prefix(min(mtu - 4, 253)))
                guard list.first.map({ $0.value.count == value.count }) ?? true,
                      2 + (list.count + 1) * (2 + value.count) <= mtu else { break }
                list.append(HandleValue(handle: a.handle, value: value))
                if case .value(let id?) = a.role { notes.append(.read(id)) }
            }
            return list.isEmpty ? found(start) : .readByTypeResponse(list)
        case .readRequest(let handle):  // §3.4.4.3
            guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
            if let code = readRefusal(a) { return refuse(handle, code) }
            if case .value(let id?) = a.role { notes.append(.read(id)) }
            return .readResponse(value: Array(readValue(a).prefix(mtu - 1)))
        case .readBlobRequest(let handle, let offset):  // §3.4.4.5
            guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
            if let code = readRefusal(a) { return refuse(handle, code) }
            let value = readValue(a)
            guard Int(offset) <= value.count else { return refuse(handle, .invalidOffset) }
            return .readBlobResponse(value: Array(value[Int(offset)...].prefix(mtu - 1)))
        case .readMultipleRequest(let handles), .readMultipleVariableRequest(let handles):  // §3.4.4.7, §3.4.4.11
            var values: [[UInt8]] = []
            for handle in handles {
                guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
                if let code = readRefusal(a) { return refuse(handle, code) }
                values.append(readValue(a))
                if case .value(let id?) = a.role { notes.append(.read(id)) }
            }
            guard case .readMultipleVariableRequest = pdu else {
                return .readMultipleResponse(values: Array(values.joined().prefix(mtu - 1)))
            }
            // Whole values while they fit; the last one that does not is cut (§3.4.4.12).
            var list: [LengthValue] = []
            var room = mtu - 1
            for value in values where room >= 2 {
                list.append(LengthValue(length: UInt16(value.count), value: Array(value.prefix(room - 2))))
                room -= 2 + min(value.count, room - 2)
            }
            return .readMultipleVariableResponse(list)
        case .readByGroupTypeRequest(let start, let end, let type):  // §3.4.4.9
            guard start != 0, start <= end else { return refuse(start, .invalidHandle) }
            guard type == BluetoothUUID.primaryService || type == BluetoothUUID.secondaryService else { return refuse(start, .unsupportedGroupType) }
            var list: [GroupValue] = []
            for a in database.range(start, end) where a.type == type {
                guard case .service(let groupEnd) = a.role else { continue }
                let value = Array(a.value.prefix(min(mtu - 6, 251)))
                guard list.first.map({ $0.value.count == value.count }) ?? true,
                      2 + (list.count + 1) * (4 + value.count) <= mtu else { break }
                list.append(GroupValue(start: a.handle, end: groupEnd, value: value))
            }
            return list.isEmpty ? found(start) : .readByGroupTypeResponse(list)
        case .writeRequest(let handle, let value):  // §3.4.5.1
            guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
            if let code = writeRefusal(a, command: false) ?? lengthRefusal(a, value.count) { return refuse(handle, code) }
            if let code = write(a, value, withResponse: true, &notes) { return refuse(handle, code) }
            return .writeResponse
        case .writeCommand(let handle, let value):  // §3.4.5.3: never answered, refused or not
            if let a = database.attribute(handle), writeRefusal(a, command: true) == nil, lengthRefusal(a, value.count) == nil {
                _ = write(a, value, withResponse: false, &notes)
            }
            return nil
        case .prepareWriteRequest(let handle, let offset, let value):  // §3.4.6.1
            guard let a = database.attribute(handle) else { return refuse(handle, .invalidHandle) }
            if let code = writeRefusal(a, command: false) { return refuse(handle, code) }
            guard prepared.count < Self.queueLimit else { return refuse(handle, .prepareQueueFull) }
            prepared.append((handle, Int(offset), value))
            return .prepareWriteResponse(handle: handle, offset: offset, value: value)
        case .executeWriteRequest(let commit):  // §3.4.6.3
            defer { prepared = [] }
            guard commit else { return .executeWriteResponse }
            // Every part is checked before any is written: all of them, or none.
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
            return .executeWriteResponse
        case .confirmation:  // §3.4.7.3
            if awaitingConfirmation {
                awaitingConfirmation = false
                notes.append(.confirmed)
            }
            return nil
        case .signedWriteCommand:
            // FavBlue keeps no signing keys (§3.4.5.4), and a command gets no answer.
            return nil
        case .unknown(let opcode, _):
            // A command (bit 6) unknown is ignored; a request unknown is answered (§3.4.1.1, §3.3.1).
            return opcode & 0x40 != 0 ? nil : refuse(0, .requestNotSupported)
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse, .readByTypeResponse,
             .readResponse, .readBlobResponse, .readMultipleResponse, .readByGroupTypeResponse, .writeResponse,
             .prepareWriteResponse, .executeWriteResponse, .notification, .indication, .readMultipleVariableResponse,
             .multipleHandleValueNotification:
            // Responses and server PDUs belong to the client side of the bearer.
            return nil
        }
    }

    /// A configuration's value is the link's own; every other attribute's is the database's.
    private func readValue(_ a: ServedAttribute) -> [UInt8] {
        if case .configuration = a.role { return HCICommand.le16(configurations[a.handle] ?? 0) }
        if case .clientFeatures = a.role { return [clientFeatures] }
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
                return .cccdImproperlyConfigured
            }
            let before = configurations[a.handle] ?? 0
            configurations[a.handle] = bits
            if let id, bits != before {
                notes.append(bits == 0 ? .unsubscribed(id) : .subscribed(id, indicate: bits & 2 != 0))
            }
        case .clientFeatures:
            guard let first = value.first else { return .invalidAttributeValueLength }
            // Bits the Core defines so far; a client may set more, but never clear one (§7.2).
            let bits = first & 0x07
            if clientFeatures & ~bits != 0 { return .valueNotAllowed }
            clientFeatures = bits
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
        clientFeatures = 0
        knownHash = database.hash
        outOfSyncTold = false
        prepared = []
        awaitingConfirmation = false
    }
}
