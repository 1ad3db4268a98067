// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// BlueZ hands FavBlue parsed properties, not HCI packets. To record a BlueZ scan as btsnoop,
/// each observation is written back as the event a controller would have sent: an LE Extended
/// Advertising Report (Core v5.4, Vol 4, Part E, §7.7.65.13), or an Extended Inquiry Result
/// (§7.7.38) for a classic device, carrying the AD structures the properties came from.
enum BlueZRecording {
    /// The event (code, length, parameters) for `o`.
    static func event(for o: Observation) -> [UInt8] {
        let rssi = UInt8(bitPattern: Int8(clamping: o.rssi ?? 127))
        if o.id.kind == .bredr {
            var eir = Array(advertisingData(o, limit: 240).prefix(240))
            eir += [UInt8](repeating: 0, count: 240 - eir.count)
            let cod = o.classOfDevice ?? 0
            var parameters: [UInt8] = [1] + o.id.wireBytes + [0x01, 0x00]
            parameters += [UInt8(cod & 0xFF), UInt8(cod >> 8 & 0xFF), UInt8(cod >> 16 & 0xFF)]
            parameters += [0x00, 0x00, rssi] + eir
            return [0x2F, UInt8(parameters.count)] + parameters
        }
        let data = advertisingData(o, limit: 229)
        var report: [UInt8] = [0x0D, 1]
        // BlueZ does not say whether the device takes connections; it lets clients try, so this does too.
        report += [0x01, 0x00]
        report += [o.id.kind == .leRandom ? 0x01 : 0x00] + o.id.wireBytes
        report += [0x01, 0x00, 0xFF]           // LE 1M, no secondary PHY, no SID
        report += [UInt8(bitPattern: Int8(clamping: o.txPower ?? 127))]
        report += [rssi, 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 6)
        report += [UInt8(data.count)] + data
        return [0x3E, UInt8(report.count)] + report
    }

    /// AD structures for every field `o` carries, as many as fit in `limit` bytes.
    static func advertisingData(_ o: Observation, limit: Int) -> [UInt8] {
        var structures: [[UInt8]] = []
        func add(_ type: UInt8, _ body: [UInt8]) {
            guard body.count < 255 else { return }
            structures.append([UInt8(body.count + 1), type] + body)
        }
        if let flags = o.flags { add(0x01, [flags]) }
        // Complete lists of 16-, 32- and 128-bit UUIDs (Core Supplement, Part A, §1.1).
        for (width, type) in [(2, UInt8(0x03)), (4, 0x05), (16, 0x07)] {
            let list = o.services.map(\.id.wire).filter { $0.count == width }.flatMap { $0 }
            if !list.isEmpty { add(type, list) }
        }
        if let name = o.name { add(0x09, Array(name.utf8.prefix(200))) }
        if let tx = o.txPower { add(0x0A, [UInt8(bitPattern: Int8(clamping: tx))]) }
        if let appearance = o.appearance { add(0x19, [UInt8(appearance & 0xFF), UInt8(appearance >> 8)]) }
        for (service, data) in o.serviceData.sorted(by: { $0.key.uuid < $1.key.uuid }) {
            add(service.id.serviceDataType, service.id.wire + data)
        }
        for maker in o.manufacturerData { add(0xFF, [UInt8(maker.companyID & 0xFF), UInt8(maker.companyID >> 8)] + maker.data) }
        var data: [UInt8] = []
        for structure in structures where data.count + structure.count <= limit { data += structure }
        return data
    }
}
