// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What one controller offers LE links in either role, read once per host (`LinkTable.controller`)
/// for the connector and the peripheral alike: the LE buffers, the LE features, and the static
/// random address both connect and advertise from (Core v5.4, Vol 6, Part B, §1.3.2.1), so a
/// device sees one FavBlue whichever role made the link.
struct LEController: Sendable {
    let bufferSize: Int
    let bufferCount: Int
    /// LE Read Local Supported Features' bits (Vol 6, Part B, §4.6).
    let features: [UInt8]
    /// The static random address, as it travels.
    let address: [UInt8]
    /// The controller took it as its own random address; else links it makes are from its public one.
    let addressTaken: Bool
    /// The public address (Read BD_ADDR), read where the random one was refused.
    let publicAddress: [UInt8]?

    func supports(_ bit: Int) -> Bool { bit / 8 < features.count && features[bit / 8] & (1 << (bit % 8)) != 0 }

    /// LE Extended Advertising, which brings LE Extended Create Connection (bit 12).
    var extended: Bool { supports(12) }

    /// The address a connection FavBlue makes comes from, as pairing names it.
    var connectingFrom: SMPSession.Party? {
        if addressTaken { return SMPSession.Party(type: 1, octets: address.reversed()) }
        return publicAddress.map { SMPSession.Party(type: 0, octets: $0.reversed()) }
    }

    /// Reads the buffers (LE's own, else the shared BR/EDR ones, §7.8.2) and features, asks for
    /// the events links need, and sets `wanted` as the random address (its two top bits made 1).
    /// The scan pauses meanwhile: a controller may not change its address while it scans (§7.8.4).
    static func read(_ host: HCIHost, wanted: [UInt8]) throws(ScanFailure) -> LEController {
        var size = 0, count = 0
        let le = try host.command(.leReadBufferSize)
        if le.count >= 4 {
            size = Int(le[1]) | Int(le[2]) << 8
            count = Int(le[3])
        }
        if size == 0 || count == 0 {
            let shared = try host.command(.readBufferSize)
            guard shared.count >= 8 else { throw ScanFailure.controller(L10n.tr("no ACL buffer size")) }
            size = Int(shared[1]) | Int(shared[2]) << 8
            count = Int(shared[4]) | Int(shared[5]) << 8
        }
        let features = (try? host.command(.leReadLocalFeatures)).map { Array($0.dropFirst()) } ?? []
        // The LE meta event (bit 61) is off after Reset; the scanner asks for the same mask.
        _ = try? host.command(.setEventMask(0x3DBF_F807_FFFB_FFFF))
        _ = try? host.command(.leSetEventMask(HCICommand.leEventMask))
        var address = wanted
        address[5] |= 0xC0
        let taken = host.scanPause.whilePaused { (try? host.command(.leSetRandomAddress(address))) != nil }
        var publicAddress: [UInt8]?
        if !taken, let reply = try? host.command(.readBDAddr), reply.count >= 7, reply[0] == 0 { publicAddress = Array(reply[1...6]) }
        return LEController(bufferSize: max(size, 27), bufferCount: max(count, 1), features: features, address: address,
                            addressTaken: taken, publicAddress: publicAddress)
    }
}
