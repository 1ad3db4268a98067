// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// H4 packet indicators (Core v5.4, Vol 4, Part A, §2).
public enum H4PacketType: UInt8, Sendable {
    case command = 0x01
    case acl = 0x02
    case sco = 0x03
    case event = 0x04
    case iso = 0x05
}

/// An HCI command: opcode and parameters (Core v5.4, Vol 4, Part E, §5.4.1).
public struct HCICommand: Equatable, Sendable {
    /// OGF << 10 | OCF.
    public let opcode: UInt16
    /// The parameter bytes.
    public let parameters: [UInt8]

    /// The command packet without the H4 indicator.
    public var packet: [UInt8] {
        [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters
    }

    /// A short name for logs and errors.
    public var name: String { Self.names[opcode] ?? Self.connectionNames[opcode] ?? Self.privacyNames[opcode]
        ?? Self.advertisingNames[opcode] ?? String(format: "opcode 0x%04X", opcode) }

    static func op(_ ogf: UInt16, _ ocf: UInt16) -> UInt16 { ogf << 10 | ocf }

    // MARK: Opcodes (Vol 4, Part E, §7)
    public static let inquiryOp = op(0x01, 0x0001)
    public static let inquiryCancelOp = op(0x01, 0x0002)
    public static let remoteNameRequestOp = op(0x01, 0x0019)
    public static let setEventMaskOp = op(0x03, 0x0001)
    public static let resetOp = op(0x03, 0x0003)
    public static let writeLocalNameOp = op(0x03, 0x0013)
    public static let writeScanEnableOp = op(0x03, 0x001A)
    public static let writeInquiryModeOp = op(0x03, 0x0045)
    public static let writeEIROp = op(0x03, 0x0052)
    public static let readLocalVersionOp = op(0x04, 0x0001)
    public static let readLocalCommandsOp = op(0x04, 0x0002)
    public static let readLocalFeaturesOp = op(0x04, 0x0003)
    public static let readBDAddrOp = op(0x04, 0x0009)
    public static let leSetEventMaskOp = op(0x08, 0x0001)
    public static let leReadLocalFeaturesOp = op(0x08, 0x0003)
    public static let leSetScanParametersOp = op(0x08, 0x000B)
    public static let leSetScanEnableOp = op(0x08, 0x000C)
    public static let leSetExtendedScanParametersOp = op(0x08, 0x0041)
    public static let leSetExtendedScanEnableOp = op(0x08, 0x0042)

    static let names: [UInt16: String] = [
        inquiryOp: "Inquiry", inquiryCancelOp: "Inquiry Cancel", remoteNameRequestOp: "Remote Name Request",
        setEventMaskOp: "Set Event Mask", resetOp: "Reset", writeLocalNameOp: "Write Local Name",
        writeScanEnableOp: "Write Scan Enable", writeInquiryModeOp: "Write Inquiry Mode",
        writeEIROp: "Write Extended Inquiry Response", readLocalVersionOp: "Read Local Version Information",
        readLocalCommandsOp: "Read Local Supported Commands", readLocalFeaturesOp: "Read Local Supported Features",
        readBDAddrOp: "Read BD_ADDR", leSetEventMaskOp: "LE Set Event Mask",
        leReadLocalFeaturesOp: "LE Read Local Supported Features", leSetScanParametersOp: "LE Set Scan Parameters",
        leSetScanEnableOp: "LE Set Scan Enable", leSetExtendedScanParametersOp: "LE Set Extended Scan Parameters",
        leSetExtendedScanEnableOp: "LE Set Extended Scan Enable",
    ]

    // MARK: Builders

    /// Reset (§7.3.2).
    public static let reset = HCICommand(opcode: resetOp, parameters: [])
    /// Read BD_ADDR (§7.4.6).
    public static let readBDAddr = HCICommand(opcode: readBDAddrOp, parameters: [])
    /// Read Local Version Information (§7.4.1).
    public static let readLocalVersion = HCICommand(opcode: readLocalVersionOp, parameters: [])
    /// Read Local Supported Commands (§7.4.2).
    public static let readLocalCommands = HCICommand(opcode: readLocalCommandsOp, parameters: [])
    /// Read Local Supported Features (§7.4.3).
    public static let readLocalFeatures = HCICommand(opcode: readLocalFeaturesOp, parameters: [])
    /// LE Read Local Supported Features (§7.8.3).
    public static let leReadLocalFeatures = HCICommand(opcode: leReadLocalFeaturesOp, parameters: [])
    /// Inquiry Cancel (§7.1.2).
    public static let inquiryCancel = HCICommand(opcode: inquiryCancelOp, parameters: [])

    /// Set Event Mask (§7.3.1), 64 bits little-endian.
    public static func setEventMask(_ mask: UInt64) -> HCICommand {
        HCICommand(opcode: setEventMaskOp, parameters: le64(mask))
    }

    /// LE Set Event Mask (§7.8.1).
    public static func leSetEventMask(_ mask: UInt64) -> HCICommand {
        HCICommand(opcode: leSetEventMaskOp, parameters: le64(mask))
    }

    /// Write Inquiry Mode (§7.3.50): 0 standard, 1 with RSSI, 2 with RSSI or extended.
    public static func writeInquiryMode(_ mode: UInt8) -> HCICommand {
        HCICommand(opcode: writeInquiryModeOp, parameters: [mode])
    }

    /// Inquiry (§7.1.1) with the General Inquiry Access Code, for `length` × 1.28 s.
    public static func inquiry(length: UInt8, maxResponses: UInt8 = 0) -> HCICommand {
        HCICommand(opcode: inquiryOp, parameters: [0x33, 0x8B, 0x9E, length, maxResponses])
    }

    /// Remote Name Request (§7.1.19).
    public static func remoteNameRequest(_ address: [UInt8], pageScanRepetitionMode: UInt8, clockOffset: UInt16) -> HCICommand {
        HCICommand(opcode: remoteNameRequestOp,
                   parameters: address + [pageScanRepetitionMode, 0, UInt8(clockOffset & 0xFF), UInt8(clockOffset >> 8)])
    }

    /// LE Set Scan Parameters (§7.8.10); interval and window in 0.625 ms units.
    public static func leSetScanParameters(active: Bool, interval: UInt16, window: UInt16, ownAddressType: UInt8 = 0) -> HCICommand {
        HCICommand(opcode: leSetScanParametersOp,
                   parameters: [active ? 1 : 0] + le16(interval) + le16(window) + [ownAddressType, 0])
    }

    /// LE Set Scan Enable (§7.8.11).
    public static func leSetScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> HCICommand {
        HCICommand(opcode: leSetScanEnableOp, parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0])
    }

    /// LE Set Extended Scan Parameters (§7.8.64) on the LE 1M PHY.
    public static func leSetExtendedScanParameters(active: Bool, interval: UInt16, window: UInt16, ownAddressType: UInt8 = 0) -> HCICommand {
        HCICommand(opcode: leSetExtendedScanParametersOp,
                   parameters: [ownAddressType, 0, 0x01, active ? 1 : 0] + le16(interval) + le16(window))
    }

    /// LE Set Extended Scan Enable (§7.8.65), continuous (duration and period 0).
    public static func leSetExtendedScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> HCICommand {
        HCICommand(opcode: leSetExtendedScanEnableOp, parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0, 0, 0, 0, 0])
    }

    /// Write Local Name (§7.3.11), padded to 248 bytes.
    public static func writeLocalName(_ name: String) -> HCICommand {
        var bytes = Array(name.utf8.prefix(247))
        bytes += [UInt8](repeating: 0, count: 248 - bytes.count)
        return HCICommand(opcode: writeLocalNameOp, parameters: bytes)
    }

    /// Write Extended Inquiry Response (§7.3.56), padded to 240 bytes.
    public static func writeEIR(_ data: [UInt8], fecRequired: Bool = false) -> HCICommand {
        let body = Array(data.prefix(240))
        return HCICommand(opcode: writeEIROp, parameters: [fecRequired ? 1 : 0] + body + [UInt8](repeating: 0, count: 240 - body.count))
    }

    /// Write Scan Enable (§7.3.18): 0x03 = inquiry and page scan.
    public static func writeScanEnable(_ value: UInt8) -> HCICommand {
        HCICommand(opcode: writeScanEnableOp, parameters: [value])
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8((v >> (8 * UInt64($0))) & 0xFF) } }
}
