// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Connection parameters for LE Create Connection, in the units the commands use.
public struct LEConnectionParameters: Equatable, Sendable {
    /// Scan interval and window while initiating, 0.625 ms units: 60 ms, listening all of it.
    /// The user is waiting for this one device, and initiating ends once it is heard.
    public var scanInterval: UInt16 = 0x0060
    public var scanWindow: UInt16 = 0x0060
    /// Connection interval bounds, 1.25 ms units (15–30 ms): discovery is a request and an
    /// answer per connection event, so the interval sets how long browsing a device takes.
    /// A peripheral that wants longer asks for it (Connection Parameter Request).
    public var intervalMin: UInt16 = 0x000C
    public var intervalMax: UInt16 = 0x0018
    /// Peripheral latency, in connection events.
    public var latency: UInt16 = 0
    /// Supervision timeout, 10 ms units (5 s).
    public var supervisionTimeout: UInt16 = 0x01F4

    /// The defaults above.
    public init() {}
}

extension HCICommand {
    // MARK: Opcodes (Core v5.4, Vol 4, Part E, §7)
    public static let disconnectOp = op(0x01, 0x0006)
    public static let readBufferSizeOp = op(0x04, 0x0005)
    public static let leReadBufferSizeOp = op(0x08, 0x0002)
    public static let leSetRandomAddressOp = op(0x08, 0x0005)
    public static let leCreateConnectionOp = op(0x08, 0x000D)
    public static let leCreateConnectionCancelOp = op(0x08, 0x000E)
    public static let leConnectionUpdateOp = op(0x08, 0x0013)
    public static let leRemoteConnectionParameterReplyOp = op(0x08, 0x0020)
    public static let leExtendedCreateConnectionOp = op(0x08, 0x0043)
    public static let leEnableEncryptionOp = op(0x08, 0x0019)
    public static let readRSSIOp = op(0x05, 0x0005)

    static let connectionNames: [UInt16: String] = [
        disconnectOp: "Disconnect", readBufferSizeOp: "Read Buffer Size", leReadBufferSizeOp: "LE Read Buffer Size",
        leSetRandomAddressOp: "LE Set Random Address", leCreateConnectionOp: "LE Create Connection",
        leCreateConnectionCancelOp: "LE Create Connection Cancel", leConnectionUpdateOp: "LE Connection Update",
        leRemoteConnectionParameterReplyOp: "LE Remote Connection Parameter Request Reply",
        leExtendedCreateConnectionOp: "LE Extended Create Connection", leEnableEncryptionOp: "LE Enable Encryption",
        readRSSIOp: "Read RSSI",
    ]

    /// The LE events the host wants (§7.8.1), the same for its scanner and its connector, so
    /// neither turns off what the other needs: connection complete (0, 9), advertising reports
    /// (1, 12), connection update complete (2), remote features (3), LTK request (4), remote
    /// connection parameter request (5), bits 8, 10 and 11 (DHKey, directed reports, PHY update),
    /// and advertising set terminated (17), which the peripheral role needs.
    public static let leEventMask: UInt64 = 0x0000_0000_0000_1F3F | 1 << 12 | 1 << 17

    /// Read Buffer Size (§7.4.5): the shared ACL buffers, used when LE has none of its own.
    public static let readBufferSize = HCICommand(opcode: readBufferSizeOp, parameters: [])
    /// LE Read Buffer Size [v1] (§7.8.2).
    public static let leReadBufferSize = HCICommand(opcode: leReadBufferSizeOp, parameters: [])
    /// LE Create Connection Cancel (§7.8.13).
    public static let leCreateConnectionCancel = HCICommand(opcode: leCreateConnectionCancelOp, parameters: [])

    /// LE Set Random Address (§7.8.4); `address` in wire order.
    public static func leSetRandomAddress(_ address: [UInt8]) -> HCICommand {
        HCICommand(opcode: leSetRandomAddressOp, parameters: address)
    }

    /// LE Create Connection (§7.8.12) to one peer, no filter accept list; `peer` in wire order.
    /// `peerType`: 0 public, 1 random, 2 or 3 the public or static identity of a device in the
    /// controller's resolving list (§7.8.12, Peer_Address_Type).
    public static func leCreateConnection(peer: [UInt8], peerType: UInt8, ownRandom: Bool,
                                          _ p: LEConnectionParameters = LEConnectionParameters()) -> HCICommand {
        HCICommand(opcode: leCreateConnectionOp,
                   parameters: le16(p.scanInterval) + le16(p.scanWindow) + [0, peerType] + peer
                       + [ownRandom ? 1 : 0] + le16(p.intervalMin) + le16(p.intervalMax) + le16(p.latency)
                       + le16(p.supervisionTimeout) + le16(0) + le16(0))
    }

    /// LE Extended Create Connection [v1] (§7.8.66), initiating on the LE 1M PHY only.
    public static func leExtendedCreateConnection(peer: [UInt8], peerType: UInt8, ownRandom: Bool,
                                                  _ p: LEConnectionParameters = LEConnectionParameters()) -> HCICommand {
        HCICommand(opcode: leExtendedCreateConnectionOp,
                   parameters: [0, ownRandom ? 1 : 0, peerType] + peer + [0x01]
                       + le16(p.scanInterval) + le16(p.scanWindow) + le16(p.intervalMin) + le16(p.intervalMax)
                       + le16(p.latency) + le16(p.supervisionTimeout) + le16(0) + le16(0))
    }

    /// Read RSSI (§7.5.4): the signal of a connection, dBm, as its Command Complete carries it
    /// (status, handle, RSSI as a signed byte).
    public static func readRSSI(handle: UInt16) -> HCICommand {
        HCICommand(opcode: readRSSIOp, parameters: le16(handle & 0x0FFF))
    }

    /// The RSSI in Read RSSI's return parameters (after the status byte the host strips or
    /// keeps); nil when they are too short or say 127 (not available).
    public static func rssi(fromReadRSSI parameters: [UInt8]) -> Int? {
        guard parameters.count >= 3 else { return nil }
        let value = Int(Int8(bitPattern: parameters[parameters.count - 1]))
        return value == 127 ? nil : value
    }

    /// Disconnect (§7.1.6); reason 0x13, Remote User Terminated Connection, as a user's choice.
    public static func disconnect(handle: UInt16, reason: UInt8 = 0x13) -> HCICommand {
        HCICommand(opcode: disconnectOp, parameters: le16(handle & 0x0FFF) + [reason])
    }

    /// LE Enable Encryption (§7.8.24) with a key (least significant octet first) and, for legacy
    /// pairing's LTK, the EDIV and Rand that name it.
    public static func leEnableEncryption(handle: UInt16, ltk: [UInt8], ediv: UInt16, rand: UInt64) -> HCICommand {
        HCICommand(opcode: leEnableEncryptionOp,
                   parameters: le16(handle) + (0..<8).map { UInt8(truncatingIfNeeded: rand >> (8 * UInt64($0))) } + le16(ediv) + ltk)
    }

    /// LE Connection Update (§7.8.18) to the parameters a peripheral asked for.
    public static func leConnectionUpdate(handle: UInt16, _ r: ConnectionParameterRequest) -> HCICommand {
        HCICommand(opcode: leConnectionUpdateOp,
                   parameters: le16(handle) + le16(r.intervalMin) + le16(r.intervalMax) + le16(r.latency)
                       + le16(r.timeout) + le16(0) + le16(0))
    }

    /// LE Remote Connection Parameter Request Reply (§7.8.31), accepting what the peer asked for.
    public static func leRemoteConnectionParameterReply(handle: UInt16, _ r: ConnectionParameterRequest) -> HCICommand {
        HCICommand(opcode: leRemoteConnectionParameterReplyOp,
                   parameters: le16(handle) + le16(r.intervalMin) + le16(r.intervalMax) + le16(r.latency)
                       + le16(r.timeout) + le16(0) + le16(0))
    }
}

/// Connection parameters a peripheral asks for, through L2CAP signalling or the link layer.
public struct ConnectionParameterRequest: Equatable, Sendable {
    /// Interval bounds, 1.25 ms units.
    public let intervalMin: UInt16
    public let intervalMax: UInt16
    /// Peripheral latency, in connection events.
    public let latency: UInt16
    /// Supervision timeout, 10 ms units.
    public let timeout: UInt16

    /// Creates a request.
    public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.timeout = timeout
    }

    /// Whether the values are within the ranges of Core v5.4, Vol 3, Part A, §4.20, and the
    /// timeout outlasts (1 + latency) × interval × 2 as Vol 6, Part B, §4.5.2 requires.
    public var isValid: Bool {
        guard (6...3200).contains(intervalMin), (6...3200).contains(intervalMax), intervalMin <= intervalMax,
              latency <= 499, (10...3200).contains(timeout) else { return false }
        // Compared in 0.25 ms units: timeout × 40 against (1 + latency) × max × 5 × 2.
        return Int(timeout) * 40 > (1 + Int(latency)) * Int(intervalMax) * 10
    }
}
