// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// libFuzzer entry point over everything that reads untrusted bytes: HCI events (connection
// events too), AD/EIR structures, btsnoop captures, and a peer's ACL data up through L2CAP,
// signalling, SMP and ATT to the GATT parsing. Built by meson-helpers/test.d/50-fuzz.sh
// together with the Domain and Bluetooth sources in one module.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = bytes.first else { return 0 }
    let body = Array(bytes.dropFirst())
    switch selector % 4 {
    case 0:
        // A slice that does not start at 0, as events inside a capture do.
        let event = bytes.dropFirst()
        let time = Date(timeIntervalSince1970: 0)
        _ = try? ObservationDecoder.observations(inEvent: event, at: time)
        // Folded twice, so the second goes through the repeated-report path; both must agree with the decoder.
        // The decoder joins pieces of an extended advertisement the same way, so an unfinished one yields nothing.
        if let decodedEvent = try? HCIEvent.decode(event) { _ = try? LinkEvent.decode(decodedEvent) }
        var folded = DeviceTable()
        var expected = DeviceTable()
        var fragments = AdvertisingFragments()
        for _ in 0..<2 {
            let count = try? folded.add(event: event, at: time)
            let decoded = try? ObservationDecoder.observations(inEvent: event, at: time, fragments: &fragments)
            for o in decoded ?? [] { expected.add(o) }
            precondition(count == decoded?.count && folded.devices == expected.devices, "the device table disagrees with the decoder")
        }
    case 1:
        _ = ADParser.parse(body)
    case 3:
        fuzzACL(body)
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

/// Reads `bytes` as ACL packets, each preceded by its length in one byte, reassembles them
/// and decodes every whole frame the way the connector does.
private func fuzzACL(_ bytes: [UInt8]) {
    var reassembler = ACLReassembler()
    var rest = bytes[...]
    while let length = rest.first {
        let packet = rest.dropFirst().prefix(Int(length))
        rest = rest.dropFirst(1 + packet.count)
        guard let acl = try? ACLPacket.decode(packet), let whole = try? reassembler.add(acl),
              let frame = try? L2CAPFrame.decode(whole) else { continue }
        switch frame.channel {
        case L2CAPFrame.signallingChannel:
            _ = (try? SignallingCommand.decode(frame.payload))?.answer?.bytes
        case L2CAPFrame.smpChannel:
            _ = SecurityManager.answer(to: frame.payload)
            // Every PDU that decodes is one of the spec's fixed lengths, and encodes back to the same bytes.
            if let pdu = try? SMPPDU.decode(frame.payload) {
                precondition(pdu.bytes == frame.payload, "SMP PDU does not round-trip")
                if case .pairingFailed(let reason) = pdu { _ = reason.message }
            }
        default:
            guard let pdu = try? ATTPDU.decode(frame.payload) else { continue }
            // What decodes must encode back to the same bytes, but for lists, whose entry width is not kept.
            switch pdu {
            case .readByTypeResponse(let entries):
                for entry in entries { _ = try? CharacteristicDeclaration(entry) }
            case .readByGroupTypeResponse(let groups):
                for group in groups { _ = try? ServiceRange(group) }
            case .findInformationResponse, .findByTypeValueResponse, .other: break
            default:
                precondition(pdu.bytes == frame.payload, "ATT PDU does not round-trip")
            }
            _ = ChatBody(decoding: frame.payload)
        }
    }
}
