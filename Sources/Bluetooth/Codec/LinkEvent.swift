// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// An LE connection that was made, or could not be (LE Connection Complete and the two
/// LE Enhanced Connection Complete versions; Core v5.4, Vol 4, Part E, §7.7.65.1, .10, .41).
public struct LEConnectionComplete: Equatable, Sendable {
    /// 0 on success, else the HCI error code (0x02 after a cancel).
    public let status: UInt8
    /// The connection handle, 12 bits.
    public let handle: UInt16
    /// 0 central, 1 peripheral.
    public let role: UInt8
    /// 0 public, 1 random (2 and 3 for resolved identities).
    public let peerAddressType: UInt8
    /// The peer's address in wire order.
    public let peerAddress: [UInt8]
    /// Connection interval, 1.25 ms units.
    public let interval: UInt16
    /// The private address the peer used, in wire order, when the controller resolved it to
    /// `peerAddress` (the enhanced forms); nil otherwise.
    public var peerPrivateAddress: [UInt8]? = nil
}

/// How many packets of one connection left the controller's buffers.
public struct CompletedPackets: Equatable, Sendable {
    /// The connection handle.
    public let handle: UInt16
    /// Packets done.
    public let count: UInt16
}

/// The connection events of the HCI host, decoded from the events `HCIEvent` keeps raw.
public enum LinkEvent: Equatable, Sendable {
    case connectionComplete(LEConnectionComplete)
    /// Disconnection Complete (§7.7.5); `reason` is an HCI error code.
    case disconnectionComplete(status: UInt8, handle: UInt16, reason: UInt8)
    /// Number of Completed Packets (§7.7.19): handle and how many of its packets left the buffers.
    case completedPackets([CompletedPackets])
    /// LE Connection Update Complete (§7.7.65.3).
    case connectionUpdateComplete(status: UInt8, handle: UInt16, interval: UInt16)
    /// LE Remote Connection Parameter Request (§7.7.65.6): the peer's link layer asks for new parameters.
    case remoteParameterRequest(handle: UInt16, ConnectionParameterRequest)
    /// LE Long Term Key Request (§7.7.65.5): a central starts encryption on a link where FavBlue
    /// is the peripheral, and asks for the key kept for (`ediv`, `rand`); both 0 for Secure Connections.
    case longTermKeyRequest(handle: UInt16, rand: UInt64, ediv: UInt16)
    /// LE Advertising Set Terminated (§7.7.65.18): set `set` stopped, because a central connected
    /// (`connection`), its duration ran out (status 0x3C), or it sent its events.
    case advertisingSetTerminated(status: UInt8, set: UInt8, connection: UInt16?)
    /// Encryption Change (§7.7.8, v2 §7.7.8.2) or Encryption Key Refresh Complete (§7.7.39):
    /// the link is encrypted (`enabled`) or the attempt failed (`status`, 0x06 when the peer has no key).
    case encryptionChange(status: UInt8, handle: UInt16, enabled: Bool)

    /// The connection event in `event`, nil for any other event; throws on a malformed one.
    public static func decode(_ event: HCIEvent) throws(DecodeError) -> LinkEvent? {
        guard case .other(let code, let parameters) = event else { return nil }
        var r = ByteReader(parameters)
        switch code {
        case 0x05:
            let status = try r.u8("status")
            let handle = try r.u16("connection handle") & 0x0FFF
            return .disconnectionComplete(status: status, handle: handle, reason: try r.u8("reason"))
        case 0x13:
            // Pairs in handle, count order, as Linux and every controller lay them out.
            let n = Int(try r.u8("number of handles"))
            var pairs: [CompletedPackets] = []
            for _ in 0..<n {
                let handle = try r.u16("connection handle") & 0x0FFF
                pairs.append(CompletedPackets(handle: handle, count: try r.u16("completed packets")))
            }
            return .completedPackets(pairs)
        case 0x08, 0x59:
            let status = try r.u8("status")
            let handle = try r.u16("connection handle") & 0x0FFF
            return .encryptionChange(status: status, handle: handle, enabled: try r.u8("encryption enabled") != 0)
        case 0x30:
            let status = try r.u8("status")
            return .encryptionChange(status: status, handle: try r.u16("connection handle") & 0x0FFF, enabled: status == 0)
        case 0x3E:
            return try leMeta(&r)
        default:
            return nil
        }
    }

    private static func leMeta(_ r: inout ByteReader) throws(DecodeError) -> LinkEvent? {
        let sub = try r.u8("LE subevent")
        switch sub {
        case 0x01, 0x0A, 0x29:
            let status = try r.u8("status")
            let handle = try r.u16("connection handle") & 0x0FFF
            let role = try r.u8("role")
            let addressType = try r.u8("peer address type")
            let address = Array(try r.take(6, "peer address"))
            // The enhanced forms carry the local and peer resolvable private addresses here.
            var peerPrivate: [UInt8]?
            if sub != 0x01 {
                _ = try r.take(6, "local resolvable private address")
                let rpa = Array(try r.take(6, "peer resolvable private address"))
                if rpa.contains(where: { $0 != 0 }) { peerPrivate = rpa }
            }
            let interval = try r.u16("connection interval")
            _ = try r.take(5, "latency, supervision timeout and clock accuracy")
            return .connectionComplete(LEConnectionComplete(status: status, handle: handle, role: role,
                                                            peerAddressType: addressType, peerAddress: address,
                                                            interval: interval, peerPrivateAddress: peerPrivate))
        case 0x03:
            let status = try r.u8("status")
            let handle = try r.u16("connection handle") & 0x0FFF
            let interval = try r.u16("connection interval")
            _ = try r.take(4, "latency and supervision timeout")
            return .connectionUpdateComplete(status: status, handle: handle, interval: interval)
        case 0x05:
            let handle = try r.u16("connection handle") & 0x0FFF
            let rand = try r.take(8, "random number").reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .longTermKeyRequest(handle: handle, rand: rand, ediv: try r.u16("encrypted diversifier"))
        case 0x12:
            let status = try r.u8("status")
            let set = try r.u8("advertising handle")
            let connection = try r.u16("connection handle") & 0x0FFF
            _ = try r.u8("completed extended advertising events")
            return .advertisingSetTerminated(status: status, set: set, connection: status == 0 ? connection : nil)
        case 0x06:
            let handle = try r.u16("connection handle") & 0x0FFF
            let request = ConnectionParameterRequest(intervalMin: try r.u16("interval min"), intervalMax: try r.u16("interval max"),
                                                     latency: try r.u16("latency"), timeout: try r.u16("timeout"))
            return .remoteParameterRequest(handle: handle, request)
        default:
            return nil
        }
    }
}
