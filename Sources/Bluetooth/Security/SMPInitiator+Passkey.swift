// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// Passkey entry (Core v5.4, Vol 3, Part H, §2.3.5.6.3): the six digits shown or typed, and the
/// twenty rounds that prove them one bit at a time.
extension SMPInitiator {
    func showPasskey() -> [SMPAction] {
        let bytes = crypto.random(4)
        let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        passkey = value
        typed = 0
        return [.ask(.displayPasskey(passkey: value, typed: nil))]
    }

    func bit(_ round: Int) -> UInt8 { 0x80 | UInt8(truncatingIfNeeded: ((passkey ?? 0) >> UInt32(round)) & 1) }

    /// The passkey as a 128-bit value, most significant first.
    var passkeyBlock: [UInt8] {
        let value = passkey ?? 0
        return [UInt8](repeating: 0, count: 12) + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    }

    func startRound(_ i: Int) throws -> [SMPAction] {
        na = crypto.random(16)
        let confirm = try crypto.f4(u: keyPair!.x, v: peerX, x: na, z: bit(i))
        phase = .roundConfirm(i)
        return [.send(.pairingConfirm(Array(confirm.reversed())))]
    }
}
