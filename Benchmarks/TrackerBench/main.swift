// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// Tracker table benchmark (release build, one core): 1,000,000 advertising reports from
// 5,000 devices, 5,000 a second; one device in ten is a tag (an AirTag, a SmartTag or a
// Tile, away from its owner), and half the rest are phones with Apple's Nearby block, which
// the table must read through. Measured in one run, twice each, best kept:
//   off: every report decoded and folded into the device table (what favblue-scan does);
//   on:  the same, with every report also read by the tracker table and the tags fed to the
//        tracker rule (what favblue-scan trackers and the app's guard add);
// and printed: ns per report for each, on / off (the goal: at most 1.05), the trackers
// followed, and the peak resident memory after each (the goal: flat).
//
//   swift build -c release --product TrackerBench && taskset -c 0 .build/release/TrackerBench

import Bluetooth
import Domain
import Foundation

let reports = 1_000_000
let devices = 5_000
let perSecond = 5_000

func ad(_ n: Int) -> [UInt8] {
    switch n % 10 {
    case 0: return [30, 0xFF, 0x4C, 0x00, 0x12, 0x19, 0x10] + (0..<22).map { UInt8(truncatingIfNeeded: n &+ $0) } + [0, 0]
    case 1 where n % 20 == 1: return [16, 0x16, 0x5A, 0xFD, 0x12, UInt8(n & 0xFF), 0x01, 0x00] + [UInt8](repeating: 0, count: 8) + [0x03]
    case 1: return [12, 0x16, 0xED, 0xFE, 0x02, 0x00] + [UInt8](repeating: UInt8(n & 0xFF), count: 7)
    case 2...6:
        let name = Array("Phone \(n)".utf8)
        return [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name + [0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x01, 0x18, 0x44, 0x22, 0x11]
    default:
        let name = Array("Dev \(n)".utf8)
        return [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name + [0x05, 0xFF, 0x59, 0x00, 0x01, 0x02]
    }
}

func event(_ n: Int, rssi: Int8) -> [UInt8] {
    let data = ad(n)
    let address: [UInt8] = [0xC6, 0x55, 0x44, 0x33, UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
    let body: [UInt8] = [0x02, 0x01, 0x00, 0x01] + address.reversed() + [UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
    return [0x3E, UInt8(body.count)] + body
}

print("building \(reports) reports…")
let start = Date(timeIntervalSince1970: 1_800_000_000)
let events: [[UInt8]] = (0..<reports).map { event($0 % devices, rssi: Int8(-40 - $0 % 50)) }

func peakMB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// Folds every report, reading trackers when `trackers`; returns seconds and the trackers followed.
func run(trackers: Bool) -> (Double, Int) {
    var table = DeviceTable(resolver: nil, perAddress: true)
    let watch = TrackerWatch(rule: TrackerRule(.medium))
    var fragments = AdvertisingFragments()
    let begin = DispatchTime.now().uptimeNanoseconds
    for (i, bytes) in events.enumerated() {
        let time = start.addingTimeInterval(Double(i) / Double(perSecond))
        guard let observations = try? ObservationDecoder.observations(inEvent: bytes[...], at: time, fragments: &fragments) else { continue }
        for o in observations {
            table.add(o)
            if trackers, let reading = TrackerTable.read(manufacturerData: o.manufacturerData, serviceData: o.serviceData) {
                watch.heard(o.id, reading, at: o.timestamp, place: nil, session: 1)
            }
        }
    }
    table.finish()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
    return (seconds, watch.trackers.count)
}

var off = Double.infinity, on = Double.infinity, followed = 0
var peakOff = 0.0
for _ in 0..<2 { off = min(off, run(trackers: false).0) }
peakOff = peakMB()
for _ in 0..<2 {
    let (seconds, count) = run(trackers: true)
    on = min(on, seconds)
    followed = count
}
let peakOn = peakMB()
let perReport = { (s: Double) in String(format: "%.0f ns", s / Double(reports) * 1e9) }
print("off: \(perReport(off)) per report (decode and fold)")
print("on:  \(perReport(on)) per report (and the tracker table and rule), \(followed) trackers followed")
print(String(format: "on / off: %.3f (goal: at most 1.05)", on / off))
print(String(format: "peak memory: %.1f MB after off, %.1f MB after on (goal: flat)", peakOff, peakOn))
