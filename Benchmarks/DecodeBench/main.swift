// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// What `favblue-scan --source btsnoop:CAPTURE --fast --format null` does, without the command
// line's asynchronous main: reads the capture into the device table and prints how many
// devices and reports it holds. Benchmarks/decode/guard.py counts its instructions under
// callgrind, which cannot follow a process parked in libdispatch's main queue.
//
//   DecodeBench CAPTURE

import Bluetooth
import Domain
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: DecodeBench CAPTURE\n".utf8))
    exit(2)
}
let (table, end) = ReplayScanner(path: CommandLine.arguments[1], realTime: false).table()
if case .failed(let reason) = end {
    FileHandle.standardError.write(Data("DecodeBench: \(reason.message)\n".utf8))
    exit(3)
}
print("devices \(table.devices.count)")
