// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// Decoder benchmark (release build, one core):
//   1. advertising reports decoded and aggregated per second, from an in-memory
//      capture of 1,000,000 reports over 5,000 devices: once as a room sends them
//      (each device repeats its data, the signal varies), once with new data in
//      every report (a counter in the manufacturer data), which the table decodes in full;
//   2. `favblue-scan --source btsnoop:BIG --fast --format null` against
//      `btmon -r BIG`, median of 5 wall times each, as a ratio.
//
//   BluetoothBench [PATH_TO_FAVBLUE_SCAN]

import Bluetooth
import Domain
import Foundation

let reports = 1_000_000
let devices = 5_000

/// A legacy LE Advertising Report event for device `n`, with flags, a name, a
/// 16-bit service and manufacturer data: about what a busy room sends.
func event(_ n: Int, rssi: Int8, counter: UInt8 = 0) -> [UInt8] {
    let name = Array("Dev \(n)".utf8)
    let ad: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name + [0x03, 0x03, 0x0F, 0x18, 0x05, 0xFF, 0x4C, 0x00, 0x01, counter]
    let address: [UInt8] = [UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), 0x33, 0x44, 0x55, 0xC6]
    let body: [UInt8] = [0x02, 0x01, 0x00, 0x01] + address + [UInt8(ad.count)] + ad + [UInt8(bitPattern: rssi)]
    return [0x3E, UInt8(body.count)] + body
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func wallTime(_ tool: String, _ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    let start = Date()
    try process.run()
    process.waitUntilExit()
    return Date().timeIntervalSince(start)
}

// 1. In memory.
let packets = (0..<reports).map { event($0 % devices, rssi: Int8(-40 - $0 % 50)) }
let changing = (0..<reports).map { event($0 % devices, rssi: Int8(-40 - $0 % 50), counter: UInt8(truncatingIfNeeded: $0 / devices)) }

/// Reports per second folded into a fresh table, median of 5.
func throughput(_ packets: [[UInt8]]) -> Double {
    var runs: [Double] = []
    for _ in 0..<5 {
        var table = DeviceTable()
        var folded = 0
        let start = Date()
        let time = Date()
        for packet in packets {
            folded += (try? table.add(event: packet[...], at: time)) ?? 0
        }
        runs.append(Double(folded) / Date().timeIntervalSince(start))
        precondition(folded == packets.count && table.devices.count == devices && table.devices.values.allSatisfy { $0.name != nil })
    }
    return median(runs)
}
print(String(format: "decode + aggregate, data repeated per device: %.2f million reports/s (median of 5; %d reports, %d devices)",
             throughput(packets) / 1e6, reports, devices))
print(String(format: "decode + aggregate, new data in every report: %.2f million reports/s (median of 5)",
             throughput(changing) / 1e6))

// 2. Against btmon on the same file.
let scan = CommandLine.arguments.count > 1 ? CommandLine.arguments[1]
    : URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "favblue-scan").path
let big = NSTemporaryDirectory() + "favblue-bench-\(UUID().uuidString).btsnoop"
defer { try? FileManager.default.removeItem(atPath: big) }
let writer = try BtsnoopWriter(path: big)
let base = Date()
for (i, packet) in packets.enumerated() { writer.write(type: .event, bytes: packet, received: true, at: base.addingTimeInterval(Double(i) / 2000)) }
writer.close()
guard FileManager.default.isExecutableFile(atPath: scan), FileManager.default.isExecutableFile(atPath: "/usr/bin/btmon") else {
    print("favblue-scan or btmon missing; skipped the comparison")
    exit(0)
}
var ours: [Double] = []
var theirs: [Double] = []
for _ in 0..<5 {
    ours.append(try wallTime(scan, ["--source", "btsnoop:\(big)", "--fast", "--format", "null"]))
    theirs.append(try wallTime("/usr/bin/btmon", ["-r", big]))
}
print(String(format: "favblue-scan --fast --format null: %.2f s; btmon -r: %.2f s (medians of 5); ratio %.2f",
             median(ours), median(theirs), median(ours) / median(theirs)))
