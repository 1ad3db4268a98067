// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// libFuzzer entry point over everything that reads untrusted bytes: HCI events,
// AD/EIR structures and btsnoop captures. Built by meson-helpers/test.d/50-fuzz.sh
// together with the Domain and Bluetooth sources in one module.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = bytes.first else { return 0 }
    let body = Array(bytes.dropFirst())
    switch selector % 3 {
    case 0:
        // A slice that does not start at 0, as events inside a capture do.
        let event = bytes.dropFirst()
        let time = Date(timeIntervalSince1970: 0)
        let decoded = try? ObservationDecoder.observations(inEvent: event, at: time)
        // Folded twice, so the second goes through the repeated-report path; both must agree with the decoder.
        var folded = DeviceTable()
        var expected = DeviceTable()
        for _ in 0..<2 {
            let count = try? folded.add(event: event, at: time)
            for o in decoded ?? [] { expected.add(o) }
            precondition(count == decoded?.count && folded.devices == expected.devices, "the device table disagrees with the decoder")
        }
    case 1:
        _ = ADParser.parse(body)
    default:
        if let reader = try? BtsnoopReader(data: body) {
            reader.forEachPacket { packet in
                if packet.type == .event {
                    _ = try? ObservationDecoder.observations(inEvent: packet.bytes[...], at: packet.timestamp)
                }
            }
        }
    }
    return 0
}
