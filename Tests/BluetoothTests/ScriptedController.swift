// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation

/// A controller and a peripheral's GATT server written out byte by byte from Core v5.4, for
/// what Bumble will not do: malformed data, pairing and signalling requests, tight buffers,
/// a server without Find By Type Value. It answers the host's commands and ATT requests.
final class ScriptedController: HCITransport, @unchecked Sendable {
    static let handle: UInt16 = 0x0040
    let chat = ChatProfile.chat
    /// Controller LE buffers: 27 bytes × `bufferCount`.
    let bufferCount: Int
    /// Whether the server answers Find By Type Value (else Request Not Supported).
    let findByTypeValue: Bool

    private let condition = NSCondition()
    private var inbox: [(H4PacketType, [UInt8])] = []
    private var closed = false
    private var partial: [UInt8] = []
    /// Everything the host sent, in order.
    private(set) var sent: [(H4PacketType, [UInt8])] = []
    /// ACL packets sent but not yet completed; the most ever outstanding.
    private(set) var outstanding = 0
    private(set) var mostOutstanding = 0
    /// Whether Number of Completed Packets is held back (to test the credits).
    var holdCompletions = false
    /// Whether the device answers at an address (wire order) with a Peer_Address_Type; an
    /// attempt elsewhere waits until it is cancelled.
    var answers: @Sendable (_ address: [UInt8], _ type: UInt8) -> Bool = { _, _ in true }
    /// The LE Create Connection still waiting, if any.
    private var pending: [UInt8]?
    /// Read Local Supported Commands' 64 octets (§6.27); none by default.
    var supportedCommands = [UInt8](repeating: 0, count: 64)
    /// The resolving list's room, and what an LE Add Device To Resolving List answers instead of
    /// success (Memory Capacity Exceeded, Command Disallowed), if anything.
    var resolvingListSize = 8
    var refuseAdds: UInt8?
    private var listed = 0
    /// Whether writes need an authenticated link (Insufficient Authentication, 0x05, otherwise).
    var requireAuthentication = false
    /// How many LE Enable Encryptions go unanswered first (a link made that the device never
    /// heard: no Encryption Change comes).
    var unansweredEncryptions = 0
    /// The LE Enable Encryptions asked for so far.
    private(set) var encryptionRequests = 0
    /// How many ATT requests go unanswered first (the device never heard the link).
    var unansweredATT = 0
    /// The private address (wire order) a device connected by its identity is found at.
    var resolvedAt: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

    /// Says it has every resolving-list command.
    func offerResolvingList(size: Int) {
        for (octet, bit) in HCICommand.resolvingListBits { supportedCommands[octet] |= 1 << bit }
        resolvingListSize = size
    }

    init(bufferCount: Int = 8, findByTypeValue: Bool = true) {
        self.bufferCount = bufferCount
        self.findByTypeValue = findByTypeValue
    }

    // MARK: The peer's side, for tests

    /// Sends an ACL packet as the controller would (first fragment flag unless told otherwise).
    func deliverACL(_ data: [UInt8], boundary: ACLPacket.Boundary = .first) {
        push(.acl, ACLPacket(handle: Self.handle, boundary: boundary, data: data).bytes)
    }

    /// Sends an L2CAP frame on `channel`.
    func deliver(channel: UInt16, _ payload: [UInt8]) { deliverACL(L2CAPFrame(channel: channel, payload: payload).bytes) }

    /// A notification of the chat TX value.
    /// The device ends the link: Disconnection Complete, "Remote User Terminated Connection".
    func disconnect() { push(.event, [0x05, 4, 0x00, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x13]) }

    func notify(_ text: String) { deliver(channel: 4, ATTPDU.notification(handle: 0x12, value: Array(text.utf8)).bytes) }

    /// Releases held completions.
    func completeAll() {
        condition.withLock { holdCompletions = false }
        completePending()
    }

    /// L2CAP frames the host sent on `channel`, joined from their fragments.
    func frames(on channel: UInt16) -> [[UInt8]] {
        var reassembler = ACLReassembler()
        return condition.withLock { sent }.compactMap { type, bytes -> [UInt8]? in
            guard type == .acl, let packet = try? ACLPacket.decode(bytes[...]),
                  let frame = try? reassembler.add(ACLPacket(handle: packet.handle,
                                                             boundary: packet.boundary == .continuation ? .continuation : .first,
                                                             data: packet.data)),
                  let l2cap = try? L2CAPFrame.decode(frame), l2cap.channel == channel else { return nil }
            return l2cap.payload
        }
    }

    /// The commands the host sent: opcode and parameters.
    var sentCommands: [(opcode: UInt16, parameters: [UInt8])] {
        condition.withLock { sent }.compactMap {
            $0.0 == .command ? (UInt16($0.1[0]) | UInt16($0.1[1]) << 8, Array($0.1.dropFirst(3))) : nil
        }
    }

    /// Opcodes of the commands the host sent.
    var commands: [UInt16] {
        condition.withLock { sent }.compactMap { $0.0 == .command ? UInt16($0.1[0]) | UInt16($0.1[1]) << 8 : nil }
    }

    // MARK: HCITransport

    func send(_ type: H4PacketType, _ bytes: [UInt8]) throws(ScanFailure) {
        condition.withLock { sent.append((type, bytes)) }
        switch type {
        case .command: answerCommand(bytes)
        case .acl: receiveACL(bytes)
        default: break
        }
    }

    func receive(timeout: Double) throws(ScanFailure) -> (H4PacketType, [UInt8])? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while inbox.isEmpty {
            if closed { throw .disconnected("scripted controller closed") }
            if !condition.wait(until: deadline) { return nil }
        }
        return inbox.removeFirst()
    }

    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    // MARK: Controller

    private func push(_ type: H4PacketType, _ bytes: [UInt8]) {
        condition.withLock {
            inbox.append((type, bytes))
            condition.broadcast()
        }
    }

    private func complete(_ opcode: UInt16, _ parameters: [UInt8]) {
        push(.event, [0x0E, UInt8(3 + parameters.count), 1, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + parameters)
    }

    private func status(_ opcode: UInt16) { push(.event, [0x0F, 4, 0, 1, UInt8(opcode & 0xFF), UInt8(opcode >> 8)]) }

    private func answerCommand(_ bytes: [UInt8]) {
        let opcode = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        switch opcode {
        case HCICommand.leReadBufferSizeOp: complete(opcode, [0, 27, 0, UInt8(bufferCount)])
        case HCICommand.leReadLocalFeaturesOp: complete(opcode, [0] + [UInt8](repeating: 0, count: 8))
        case HCICommand.leCreateConnectionOp:
            status(opcode)
            let peer = Array(bytes[9..<15])
            guard answers(peer, bytes[8]) else {
                condition.withLock { pending = peer }
                return
            }
            if bytes[8] >= 2 {
                // By identity: the LE Enhanced Connection Complete names the address it was found at (§7.7.65.10).
                push(.event, [0x3E, 31, 0x0A, 0x00, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x00, bytes[8]] + peer
                     + [UInt8](repeating: 0, count: 6) + resolvedAt + [0x18, 0, 0, 0, 0xF4, 1, 0])
                return
            }
            push(.event, [0x3E, 19, 0x01, 0x00, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x00, bytes[8]] + peer
                 + [0x18, 0, 0, 0, 0xF4, 1, 0])
        case HCICommand.leCreateConnectionCancelOp:
            // §7.8.13: Command Complete, then the attempt's end with Unknown Connection Identifier.
            complete(opcode, [0])
            if let peer = condition.withLock({ () -> [UInt8]? in defer { pending = nil }; return pending }) {
                push(.event, [0x3E, 19, 0x01, 0x02, 0, 0, 0x00, 0x01] + peer + [0, 0, 0, 0, 0, 0, 0])
            }
        case HCICommand.disconnectOp, HCICommand.leConnectionUpdateOp:
            status(opcode)
            if opcode == HCICommand.disconnectOp {
                push(.event, [0x05, 4, 0, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x16])
            }
        case HCICommand.readLocalCommandsOp: complete(opcode, [0] + supportedCommands)
        case HCICommand.leReadResolvingListSizeOp: complete(opcode, [0, UInt8(resolvingListSize)])
        case HCICommand.leClearResolvingListOp:
            condition.withLock { listed = 0 }
            complete(opcode, [0])
        case HCICommand.leRemoveFromResolvingListOp:
            condition.withLock { listed = max(listed - 1, 0) }
            complete(opcode, [0])
        case HCICommand.leAddToResolvingListOp:
            let status: UInt8 = condition.withLock {
                if let refusal = refuseAdds { return refusal }
                guard listed < resolvingListSize else { return 0x07 }
                listed += 1
                return 0
            }
            complete(opcode, [status])
        case HCICommand.leEnableEncryptionOp:
            // The key is taken as it is: Encryption Change, on (§7.7.8).
            status(opcode)
            let silent = condition.withLock { () -> Bool in
                encryptionRequests += 1
                return encryptionRequests <= unansweredEncryptions
            }
            if !silent { push(.event, [0x08, 4, 0x00, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x01]) }
        case HCICommand.readRSSIOp: complete(opcode, [0, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), UInt8(bitPattern: -63)])
        default: complete(opcode, [0])
        }
    }

    private func receiveACL(_ bytes: [UInt8]) {
        condition.withLock {
            outstanding += 1
            mostOutstanding = max(mostOutstanding, outstanding)
        }
        if !condition.withLock({ holdCompletions }) { completePending() }
        guard let packet = try? ACLPacket.decode(bytes[...]) else { return }
        partial = packet.boundary == .continuation ? partial + packet.data : packet.data
        guard partial.count >= 4, partial.count == 4 + (Int(partial[0]) | Int(partial[1]) << 8),
              let frame = try? L2CAPFrame.decode(partial), frame.channel == 4 else { return }
        let silent = condition.withLock { () -> Bool in
            guard unansweredATT > 0 else { return false }
            unansweredATT -= 1
            return true
        }
        if !silent, let answer = serve(frame.payload) { deliver(channel: 4, answer.bytes) }
    }

    private func completePending() {
        let count = condition.withLock { () -> Int in
            defer { outstanding = 0 }
            return outstanding
        }
        guard count > 0 else { return }
        push(.event, [0x13, 5, 1, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), UInt8(count), 0])
    }

    /// The GATT server: GAP 0x01–0x05, chat 0x10–0x15 (TX decl 0x11, value 0x12, CCCD 0x13;
    /// RX decl 0x14, value 0x15, write without response only).
    private func serve(_ request: [UInt8]) -> ATTPDU? {
        guard let pdu = try? ATTPDU.decode(request) else { return nil }
        switch pdu {
        case .exchangeMTURequest: return .exchangeMTUResponse(mtu: 64)
        case .findByTypeValueRequest(_, _, _, let value):
            guard findByTypeValue else { return .errorResponse(request: 0x06, handle: 1, code: .requestNotSupported) }
            if value == chat.service.wire { return .findByTypeValueResponse([GroupValue(start: 0x10, end: 0x15, value: [])]) }
            return .errorResponse(request: 0x06, handle: 1, code: .attributeNotFound)
        case .readByGroupTypeRequest(let start, _, _):
            if start <= 1 { return .readByGroupTypeResponse([GroupValue(start: 1, end: 5, value: [0x00, 0x18])]) }
            if start <= 0x10 { return .readByGroupTypeResponse([GroupValue(start: 0x10, end: 0x15, value: chat.service.wire)]) }
            return .errorResponse(request: 0x10, handle: start, code: .attributeNotFound)
        case .readByTypeRequest(let start, _, let type):
            // No included services here.
            guard type == .characteristic else { return .errorResponse(request: 0x08, handle: start, code: .attributeNotFound) }
            guard start <= 0x14 else { return .errorResponse(request: 0x08, handle: start, code: .attributeNotFound) }
            return .readByTypeResponse([HandleValue(handle: 0x11, value: [0x10, 0x12, 0x00] + chat.tx.wire),
                                        HandleValue(handle: 0x14, value: [0x04, 0x15, 0x00] + chat.rx.wire)])
        case .readRequest(let handle):
            switch handle {
            case 0x03: return .readResponse(value: Array("Scripted".utf8))
            case 0x05: return .readResponse(value: [0x00, 0x00])
            default: return .errorResponse(request: 0x0A, handle: handle, code: .readNotPermitted)
            }
        case .findInformationRequest(let start, _):
            return .findInformationResponse([HandleUUID(handle: start, uuid: .clientCharacteristicConfiguration)])
        case .writeRequest(let handle, _):
            if requireAuthentication { return .errorResponse(request: 0x12, handle: handle, code: .insufficientAuthentication) }
            return .writeResponse
        default: return nil
        }
    }
}
