// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// The controller's resolving list (Core v5.4, Vol 4, Part E, §7.8.38–.45): bonded devices whose
/// private addresses the controller resolves itself.
extension HCICommand {
    public static let leAddToResolvingListOp = op(0x08, 0x0027)
    public static let leRemoveFromResolvingListOp = op(0x08, 0x0028)
    public static let leClearResolvingListOp = op(0x08, 0x0029)
    public static let leReadResolvingListSizeOp = op(0x08, 0x002A)
    public static let leSetAddressResolutionEnableOp = op(0x08, 0x002D)
    public static let leSetRPATimeoutOp = op(0x08, 0x002E)

    static let privacyNames: [UInt16: String] = [
        leAddToResolvingListOp: "LE Add Device To Resolving List",
        leRemoveFromResolvingListOp: "LE Remove Device From Resolving List",
        leClearResolvingListOp: "LE Clear Resolving List", leReadResolvingListSizeOp: "LE Read Resolving List Size",
        leSetAddressResolutionEnableOp: "LE Set Address Resolution Enable",
        leSetRPATimeoutOp: "LE Set Resolvable Private Address Timeout",
    ]

    /// Where each resolving-list command sits in Read Local Supported Commands (§6.27): octet and bit.
    static let resolvingListBits: [(octet: Int, bit: Int)] = [(34, 3), (34, 4), (34, 5), (34, 6), (35, 1), (35, 2)]

    /// LE Clear Resolving List (§7.8.40).
    public static let leClearResolvingList = HCICommand(opcode: leClearResolvingListOp, parameters: [])
    /// LE Read Resolving List Size (§7.8.41): status, then the number of entries it holds.
    public static let leReadResolvingListSize = HCICommand(opcode: leReadResolvingListSizeOp, parameters: [])

    /// LE Add Device To Resolving List (§7.8.38): a device's identity and IRK, and FavBlue's own
    /// IRK. Keys are given most significant octet first and sent least significant first.
    public static func leAddToResolvingList(identity: DeviceID, peerIRK: [UInt8], localIRK: [UInt8]) -> HCICommand {
        HCICommand(opcode: leAddToResolvingListOp,
                   parameters: [identity.kind == .leRandom ? 1 : 0] + identity.wireBytes + peerIRK.reversed() + localIRK.reversed())
    }

    /// LE Remove Device From Resolving List (§7.8.39).
    public static func leRemoveFromResolvingList(identity: DeviceID) -> HCICommand {
        HCICommand(opcode: leRemoveFromResolvingListOp, parameters: [identity.kind == .leRandom ? 1 : 0] + identity.wireBytes)
    }

    /// LE Set Address Resolution Enable (§7.8.44).
    public static func leSetAddressResolutionEnable(_ on: Bool) -> HCICommand {
        HCICommand(opcode: leSetAddressResolutionEnableOp, parameters: [on ? 1 : 0])
    }

    /// LE Set Resolvable Private Address Timeout (§7.8.45), seconds (1–3600; 900 by default).
    public static func leSetRPATimeout(seconds: UInt16) -> HCICommand {
        HCICommand(opcode: leSetRPATimeoutOp, parameters: [UInt8(seconds & 0xFF), UInt8(seconds >> 8)])
    }

    /// Whether Read Local Supported Commands' return parameters (status first) list every
    /// resolving-list command.
    static func supportsResolvingList(_ commands: [UInt8]) -> Bool {
        guard commands.count >= 65, commands[0] == 0 else { return false }
        return resolvingListBits.allSatisfy { commands[1 + $0.octet] & (1 << $0.bit) != 0 }
    }
}
