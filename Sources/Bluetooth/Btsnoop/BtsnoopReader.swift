// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// One HCI packet from a capture, as H4 (indicator + packet).
public struct CapturedPacket: Equatable, Sendable {
    /// The packet type.
    public let type: H4PacketType
    /// True for controller → host.
    public let received: Bool
    /// When it was captured.
    public let timestamp: Date
    /// The packet without its indicator.
    public let bytes: [UInt8]
}

/// Why a capture cannot be read.
public enum BtsnoopError: Error, Equatable, Sendable {
    case unreadable(String)
    case badMagic
    case unknownDatalink(UInt32)
    case truncated(records: Int)

    /// A sentence for the user.
    public var message: String {
        switch self {
        case .unreadable(let detail): return L10n.format("The capture cannot be read: {}", detail)
        case .badMagic: return L10n.tr("This is not a btsnoop capture (it does not start with “btsnoop”).")
        case .unknownDatalink(let link): return L10n.format("The capture uses datalink {}, which FavBlue cannot read.", link)
        case .truncated(let records): return L10n.format("The capture ends in the middle of a record after {} complete records.", records)
        }
    }
}

/// Reads btsnoop captures: datalinks 1001 (HCI), 1002 (H4) and 2001 (Linux monitor).
public struct BtsnoopReader: Sendable {
    /// The datalink type from the header.
    public let datalink: UInt32
    private let data: [UInt8]

    /// µs from 0000-01-01 to 1970-01-01, the btsnoop timestamp epoch.
    static let epochOffset: Int64 = 0x00E0_3AB4_4A67_6000 - 946_684_800_000_000

    /// Opens a capture file.
    public init(path: String) throws(BtsnoopError) {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw .unreadable(L10n.format("no readable file at {}", path))
        }
        try self.init(data: [UInt8](contents))
    }

    /// Reads a capture held in memory.
    public init(data: [UInt8]) throws(BtsnoopError) {
        guard data.count >= 16, Array(data[0..<8]) == Array("btsnoop\0".utf8) else { throw .badMagic }
        let link = Self.be32(data, 12)
        guard [1001, 1002, 2001].contains(link) else { throw .unknownDatalink(link) }
        datalink = link
        self.data = data
    }

    /// Every HCI packet in order. A truncated last record ends the list and is reported
    /// in `truncated`, so everything before it is still used.
    public func packets() -> (packets: [CapturedPacket], truncated: BtsnoopError?) {
        var out: [CapturedPacket] = []
        var problem: BtsnoopError?
        forEachPacket({ out.append($0) }, truncated: { problem = $0 })
        return (out, problem)
    }

    /// Calls `body` for each HCI packet without collecting them (for large captures).
    public func forEachPacket(_ body: (CapturedPacket) -> Void, truncated: (BtsnoopError) -> Void = { _ in }) {
        var offset = 16
        var records = 0
        while offset < data.count {
            guard offset + 24 <= data.count else { truncated(.truncated(records: records)); return }
            let included = Int(Self.be32(data, offset + 4))
            let flags = Self.be32(data, offset + 8)
            let micros = Int64(bitPattern: UInt64(Self.be32(data, offset + 16)) << 32 | UInt64(Self.be32(data, offset + 20)))
            let start = offset + 24
            guard start + included <= data.count else { truncated(.truncated(records: records)); return }
            offset = start + included
            records += 1
            // Wrapping: a damaged record may hold any timestamp.
            let time = Date(timeIntervalSince1970: Double(micros &- Self.epochOffset) / 1_000_000)
            if let packet = packet(flags: flags, body: data[start..<(start + included)], time: time) { body(packet) }
        }
    }

    private func packet(flags: UInt32, body: ArraySlice<UInt8>, time: Date) -> CapturedPacket? {
        switch datalink {
        case 1001:
            // Flags: bit 0 direction (1 = received), bit 1 command/event (1) or data (0).
            let received = flags & 1 != 0
            let type: H4PacketType = flags & 2 != 0 ? (received ? .event : .command) : .acl
            return CapturedPacket(type: type, received: received, timestamp: time, bytes: Array(body))
        case 1002:
            guard let first = body.first, let type = H4PacketType(rawValue: first) else { return nil }
            return CapturedPacket(type: type, received: flags & 1 != 0, timestamp: time, bytes: Array(body.dropFirst()))
        default:
            // Linux monitor: the low 16 bits of the flags are the opcode (btmon's btsnoop.h).
            switch flags & 0xFFFF {
            case 2: return CapturedPacket(type: .command, received: false, timestamp: time, bytes: Array(body))
            case 3: return CapturedPacket(type: .event, received: true, timestamp: time, bytes: Array(body))
            case 4: return CapturedPacket(type: .acl, received: false, timestamp: time, bytes: Array(body))
            case 5: return CapturedPacket(type: .acl, received: true, timestamp: time, bytes: Array(body))
            default: return nil
            }
        }
    }

    static func be32(_ d: [UInt8], _ i: Int) -> UInt32 {
        UInt32(d[i]) << 24 | UInt32(d[i + 1]) << 16 | UInt32(d[i + 2]) << 8 | UInt32(d[i + 3])
    }
}
