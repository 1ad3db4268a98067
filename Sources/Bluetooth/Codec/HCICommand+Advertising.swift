// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The LE advertising commands, legacy and extended (Core v5.4, Vol 4, Part E, §7.8.5–§7.8.9
/// and §7.8.52–§7.8.61), and the ones that read what the controller can do.
extension HCICommand {
    public static let leSetAdvertisingParametersOp = op(0x08, 0x0006)
    public static let leReadAdvertisingTxPowerOp = op(0x08, 0x0007)
    public static let leSetAdvertisingDataOp = op(0x08, 0x0008)
    public static let leSetScanResponseDataOp = op(0x08, 0x0009)
    public static let leSetAdvertisingEnableOp = op(0x08, 0x000A)
    public static let leSetAdvertisingSetRandomAddressOp = op(0x08, 0x0035)
    public static let leSetExtendedAdvertisingParametersOp = op(0x08, 0x0036)
    public static let leSetExtendedAdvertisingDataOp = op(0x08, 0x0037)
    public static let leSetExtendedScanResponseDataOp = op(0x08, 0x0038)
    public static let leSetExtendedAdvertisingEnableOp = op(0x08, 0x0039)
    public static let leReadMaximumAdvertisingDataLengthOp = op(0x08, 0x003A)
    public static let leReadNumberOfSupportedAdvertisingSetsOp = op(0x08, 0x003B)
    public static let leRemoveAdvertisingSetOp = op(0x08, 0x003C)
    public static let leLongTermKeyRequestReplyOp = op(0x08, 0x001A)
    public static let leLongTermKeyRequestNegativeReplyOp = op(0x08, 0x001B)

    static let advertisingNames: [UInt16: String] = [
        leSetAdvertisingParametersOp: "LE Set Advertising Parameters", leReadAdvertisingTxPowerOp: "LE Read Advertising Physical Channel Tx Power",
        leSetAdvertisingDataOp: "LE Set Advertising Data", leSetScanResponseDataOp: "LE Set Scan Response Data",
        leSetAdvertisingEnableOp: "LE Set Advertising Enable", leSetAdvertisingSetRandomAddressOp: "LE Set Advertising Set Random Address",
        leSetExtendedAdvertisingParametersOp: "LE Set Extended Advertising Parameters",
        leSetExtendedAdvertisingDataOp: "LE Set Extended Advertising Data",
        leSetExtendedScanResponseDataOp: "LE Set Extended Scan Response Data",
        leSetExtendedAdvertisingEnableOp: "LE Set Extended Advertising Enable",
        leReadMaximumAdvertisingDataLengthOp: "LE Read Maximum Advertising Data Length",
        leReadNumberOfSupportedAdvertisingSetsOp: "LE Read Number of Supported Advertising Sets",
        leRemoveAdvertisingSetOp: "LE Remove Advertising Set",
        leLongTermKeyRequestReplyOp: "LE Long Term Key Request Reply",
        leLongTermKeyRequestNegativeReplyOp: "LE Long Term Key Request Negative Reply",
    ]

    /// An interval in milliseconds as the controller counts it, 0.625 ms units.
    static func slots(_ milliseconds: Double) -> UInt32 { UInt32(max(0x20, min(0xFF_FFFF, (milliseconds / 0.625).rounded()))) }

    /// LE Set Advertising Parameters (§7.8.5). `type`: 0 ADV_IND, 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND;
    /// own address 1, random. All three channels, no filter.
    public static func leSetAdvertisingParameters(intervalMs: Double, type: UInt8, ownRandom: Bool) -> HCICommand {
        let interval = UInt16(min(slots(intervalMs), 0x4000))
        return HCICommand(opcode: leSetAdvertisingParametersOp,
                          parameters: le16(interval) + le16(interval) + [type, ownRandom ? 1 : 0, 0] + [0, 0, 0, 0, 0, 0] + [0x07, 0x00])
    }

    /// LE Set Advertising Data (§7.8.7) and LE Set Scan Response Data (§7.8.8): a length, then 31 bytes.
    public static func leSetAdvertisingData(_ data: [UInt8], scanResponse: Bool = false) -> HCICommand {
        let body = Array(data.prefix(31))
        return HCICommand(opcode: scanResponse ? leSetScanResponseDataOp : leSetAdvertisingDataOp,
                          parameters: [UInt8(body.count)] + body + [UInt8](repeating: 0, count: 31 - body.count))
    }

    /// LE Set Advertising Enable (§7.8.9).
    public static func leSetAdvertisingEnable(_ on: Bool) -> HCICommand {
        HCICommand(opcode: leSetAdvertisingEnableOp, parameters: [on ? 1 : 0])
    }

    /// LE Set Advertising Set Random Address (§7.8.52), the address as it travels.
    public static func leSetAdvertisingSetRandomAddress(set: UInt8, address: [UInt8]) -> HCICommand {
        HCICommand(opcode: leSetAdvertisingSetRandomAddressOp, parameters: [set] + address)
    }

    /// LE Set Extended Advertising Parameters [v1] (§7.8.53). `properties`: bit 0 connectable,
    /// 1 scannable, 4 legacy PDUs; PHYs 1 (1M), 2 (2M), 3 (Coded); own address random; TX power
    /// 0x7F, the controller's choice; SID `set`.
    public static func leSetExtendedAdvertisingParameters(set: UInt8, properties: UInt16, intervalMs: Double,
                                                           primaryPHY: UInt8, secondaryPHY: UInt8) -> HCICommand {
        let interval = slots(intervalMs)
        let i = [UInt8(interval & 0xFF), UInt8(interval >> 8 & 0xFF), UInt8(interval >> 16)]
        return HCICommand(opcode: leSetExtendedAdvertisingParametersOp,
                          parameters: [set] + le16(properties) + i + i + [0x07, 0x01, 0x00] + [0, 0, 0, 0, 0, 0] + [0x00, 0x7F,
                                                                                                                    primaryPHY, 0x00, secondaryPHY, set & 0x0F, 0x00])
    }

    /// LE Set Extended Advertising Data (§7.8.54) or Scan Response Data (§7.8.55), cut into
    /// commands of at most 251 bytes each: operation 3 (whole), else 1 (first), 0 (middle), 2 (last).
    /// Fragment preference 1: the controller should not fragment.
    public static func leSetExtendedAdvertisingData(set: UInt8, _ data: [UInt8], scanResponse: Bool = false) -> [HCICommand] {
        let opcode = scanResponse ? leSetExtendedScanResponseDataOp : leSetExtendedAdvertisingDataOp
        guard data.count > 251 else { return [HCICommand(opcode: opcode, parameters: [set, 0x03, 0x01, UInt8(data.count)] + data)] }
        let parts = stride(from: 0, to: data.count, by: 251).map { Array(data[$0..<min($0 + 251, data.count)]) }
        return parts.enumerated().map { i, part in
            let operation: UInt8 = i == 0 ? 0x01 : i == parts.count - 1 ? 0x02 : 0x00
            return HCICommand(opcode: opcode, parameters: [set, operation, 0x01, UInt8(part.count)] + part)
        }
    }

    /// LE Set Extended Advertising Enable (§7.8.56) for one set; `duration` in 10 ms units (0: until disabled).
    public static func leSetExtendedAdvertisingEnable(_ on: Bool, set: UInt8, duration: UInt16 = 0) -> HCICommand {
        HCICommand(opcode: leSetExtendedAdvertisingEnableOp, parameters: [on ? 1 : 0, 1, set] + le16(duration) + [0])
    }

    /// LE Remove Advertising Set (§7.8.59).
    public static func leRemoveAdvertisingSet(_ set: UInt8) -> HCICommand {
        HCICommand(opcode: leRemoveAdvertisingSetOp, parameters: [set])
    }

    /// LE Read Maximum Advertising Data Length (§7.8.57).
    public static let leReadMaximumAdvertisingDataLength = HCICommand(opcode: leReadMaximumAdvertisingDataLengthOp, parameters: [])
    /// LE Read Number of Supported Advertising Sets (§7.8.58).
    public static let leReadNumberOfSupportedAdvertisingSets = HCICommand(opcode: leReadNumberOfSupportedAdvertisingSetsOp, parameters: [])

    /// LE Long Term Key Request Reply (§7.8.25): the key, least significant octet first.
    public static func leLongTermKeyRequestReply(handle: UInt16, ltk: [UInt8]) -> HCICommand {
        HCICommand(opcode: leLongTermKeyRequestReplyOp, parameters: le16(handle) + ltk)
    }

    /// LE Long Term Key Request Negative Reply (§7.8.26): no key for this central.
    public static func leLongTermKeyRequestNegativeReply(handle: UInt16) -> HCICommand {
        HCICommand(opcode: leLongTermKeyRequestNegativeReplyOp, parameters: le16(handle))
    }
}
