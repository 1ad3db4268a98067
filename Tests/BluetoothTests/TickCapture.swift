// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Writes small btsnoop (H4) captures for replay tests: legacy advertising reports, each from a
/// new address.
enum TickCapture {
    static func write(at seconds: [Double], prefix: String) throws -> String {
        let ad: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09] + Array("Tick".utf8)
        return try write(seconds.map { ($0, ad) }, prefix: prefix)
    }

    /// One legacy report per advert, the i-th from address C6:05:04:03:02:i, at its second;
    /// the advertising data is written as given, however wrong it is.
    static func write(adverts: [[UInt8]], prefix: String) throws -> String {
        try write(adverts.enumerated().map { (Double($0.offset) / 1000, $0.element) }, prefix: prefix)
    }

    /// One legacy report from each random address (most significant octet first), a millisecond apart.
    static func write(from addresses: [[UInt8]], ad: [UInt8], prefix: String) throws -> String {
        try write(addresses.enumerated().map { (Double($0.offset) / 1000, ad) }, addresses: addresses, prefix: prefix)
    }

    /// The rotating band: private addresses 4A:…:00, 4A:…:01, 4A:…:02, ten seconds each.
    static let band: [[UInt8]] = (0..<3).map { [0x4A, 0x10, 0x20, 0x30, 0x40, UInt8($0)] }

    /// Thirty seconds of a band that takes a new private address every ten (`band`) beside ten
    /// identical tags that keep theirs (5B:…:00–09), each advertising twice a second.
    static func rotatingBandAndTenTags(prefix: String) throws -> String {
        let bandAd: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09] + Array("Band".utf8)
        let tagAd: [UInt8] = [0x02, 0x01, 0x06, 0x04, 0x09] + Array("Tag".utf8)
        var reports: [(second: Double, ad: [UInt8], address: [UInt8])] = []
        for tick in 0..<60 {
            let second = Double(tick) / 2
            reports.append((second, bandAd, band[tick / 20]))
            for tag in 0..<10 {
                reports.append((second + Double(tag + 1) / 100, tagAd, [0x5B, 0x10, 0x20, 0x30, 0x40, UInt8(tag)]))
            }
        }
        return try write(reports.map { ($0.second, $0.ad) }, addresses: reports.map(\.address), prefix: prefix)
    }

    /// Each report at its second (from 2000-01-01T00:00:00Z), from its random address (most significant octet first).
    static func write(timed reports: [(second: Double, ad: [UInt8], address: [UInt8])], prefix: String) throws -> String {
        try write(reports.map { ($0.second, $0.ad) }, addresses: reports.map(\.address), prefix: prefix)
    }

    private static func write(_ reports: [(second: Double, ad: [UInt8])], addresses: [[UInt8]]? = nil,
                              prefix: String) throws -> String {
        var bytes = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
        let epoch: Int64 = 0x00E0_3AB4_4A67_6000
        for (i, (second, ad)) in reports.enumerated() {
            let address = addresses.map { Array($0[i].reversed()) } ?? [UInt8(i), 2, 3, 4, 5, 0xC6]
            let report: [UInt8] = [0x02, 0x01, 0x00, 0x01] + address + [UInt8(ad.count)] + ad + [0xC4]
            let packet: [UInt8] = [0x04, 0x3E, UInt8(report.count)] + report
            let stamp = epoch + Int64(second * 1_000_000)
            for value in [UInt32(packet.count), UInt32(packet.count), 3, 0] {
                bytes += withUnsafeBytes(of: value.bigEndian, Array.init)
            }
            bytes += withUnsafeBytes(of: stamp.bigEndian, Array.init) + packet
        }
        let path = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID()).btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
