// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// libFuzzer entry point over everything that reads untrusted bytes: HCI events (connection
// events too), AD/EIR structures, btsnoop captures, and a peer's ACL data up through L2CAP,
// signalling, SMP (the pairing state machine in both roles) and ATT (the client's parsing and
// FavBlue's GATT server, request by request) to the GATT parsing, and the
// characteristic value decoders, gateways' BTtoMQTT messages, every sensor decoder, and the Device
// Manager's CBOR, SMP messages, the serial line's framing and MCUboot images. Built by meson-helpers/test.d/50-fuzz.sh
// together with the Domain and Bluetooth sources in one module.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = bytes.first else { return 0 }
    let body = Array(bytes.dropFirst())
    switch selector % 5 {
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
            for o in decoded ?? [] {
                expected.add(o)
                // Any advertisement may claim to be a tracker: the table must read it or refuse it, never trap.
                _ = TrackerTable.read(manufacturerData: o.manufacturerData, serviceData: o.serviceData)
            }
            precondition(count == decoded?.count && folded.devices == expected.devices, "the device table disagrees with the decoder")
        }
    case 1:
        _ = ADParser.parse(body)
        // What a device running MCUmgr sends, and an image file: read or refused in words, never a trap.
        if let item = try? CBOR.decode(body) { precondition((try? CBOR.decode(item.encoded)) != nil, "CBOR that does not read back") }
        _ = try? SMPMessage.decode(body)
        _ = try? MCUbootImage.read(body)
        // The same bytes as a firmware package (a ZIP file): an image out, or words.
        _ = try? FirmwarePackage.images(in: body) { packed, size in size <= 1 << 16 ? packed : nil }
        // The same bytes as what a serial line brings: whole messages out, bounded, whatever came.
        var line = SMPSerialFraming.Decoder(limit: 512)
        for message in line.add(body).messages { precondition(message.count <= 512, "a serial frame past its limit") }
        // The same bytes as a gateway's MQTT message and topic: read or refused, never a trap.
        _ = try? BTtoMQTT.observation(body, at: Date(timeIntervalSince1970: 0), source: "fuzz")
        _ = try? BTtoMQTT.gateway(inTopic: body, prefix: "home")
        fuzzSensors(body)
    case 3:
        fuzzACL(body)
    case 4:
        // A characteristic value: the first byte picks the type (0x2A00 + it), the rest is the value.
        if let type = body.first {
            let decoded = CharacteristicValues.decode(0x2A00 + UInt16(type), Array(body.dropFirst()))
            _ = decoded.text
            if case .tooShort(let needs, let got) = decoded { precondition(needs > got, "too short, yet long enough") }
            // The same bytes through a presentation format made of the first seven.
            if let format = PresentationFormat(descriptor: Array(body.prefix(7))) { _ = format.decode(Array(body.dropFirst(7))).text }
        }
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
    // One pairing per input, fed every SMP frame in order, as the connector does.
    let smp = SMPSession(role: .initiator, crypto: FuzzCrypto(), local: .init(type: 1, octets: [0xC0, 1, 2, 3, 4, 5]),
                           remote: .init(type: 0, octets: [0, 1, 2, 3, 4, 5]),
                           identity: .init(irk: [UInt8](repeating: 1, count: 16), address: .init(type: 1, octets: [0xC0, 1, 2, 3, 4, 5])))
    _ = smp.start()
    // The same frames reach FavBlue's own side: a responder pairing with a stranger, and the
    // GATT server every link answers from.
    let responder = SMPSession(role: .responder, crypto: FuzzCrypto(), local: .init(type: 1, octets: [0xC0, 1, 2, 3, 4, 5]),
                                 remote: .init(type: 0, octets: [0, 1, 2, 3, 4, 5]),
                                 identity: .init(irk: [UInt8](repeating: 1, count: 16), address: .init(type: 1, octets: [0xC0, 1, 2, 3, 4, 5])))
    var server = ATTServer(database: fuzzDatabase)
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
            drive(smp, smp.receive(frame.payload))
            drive(responder, responder.receive(frame.payload))
            // Every PDU that decodes is one of the spec's fixed lengths, and encodes back to the same bytes.
            if let pdu = try? SMPPDU.decode(frame.payload) {
                precondition(pdu.bytes == frame.payload, "SMP PDU does not round-trip")
                if case .pairingFailed(let reason) = pdu { _ = reason.message }
            }
        default:
            fuzzServer(&server, frame.payload)
            guard let pdu = try? ATTPDU.decode(frame.payload) else { continue }
            // What decodes must encode back to the same bytes, but for lists, whose entry width is not kept.
            switch pdu {
            case .readByTypeResponse(let entries):
                for entry in entries { _ = try? CharacteristicDeclaration(entry) }
            case .readByGroupTypeResponse(let groups):
                for group in groups { _ = try? ServiceRange(group) }
            case .findInformationResponse, .findByTypeValueResponse, .unknown: break
            default:
                precondition(pdu.bytes == frame.payload, "ATT PDU does not round-trip")
            }
            _ = ChatBody(decoding: frame.payload)
        }
    }
}

/// Carries out what the pairing asks, the way the connector would, and checks that an ended
/// pairing takes nothing more.
private func drive(_ smp: SMPSession, _ actions: [SMPAction]) {
    for action in actions {
        switch action {
        case .send(let pdu): precondition(pdu.bytes.count >= 2, "an SMP PDU has a code and a body")
        case .ask(.confirm): drive(smp, smp.answer(.confirmed))
        case .ask(.enterPasskey): drive(smp, smp.answer(.passkey(123_456)))
        case .ask: break
        case .encrypt(let ltk, _, _), .key(let ltk):
            precondition(ltk.count == 16, "an LTK has 16 bytes")
            drive(smp, smp.encrypted(status: 0))
        case .finished, .failed:
            precondition(!smp.isRunning, "pairing ended but still runs")
            precondition(smp.receive([0x05, 0x08]).isEmpty, "an ended pairing answers nothing")
        }
    }
}

/// A server with every kind of attribute: open, encrypted, authenticated, long, notifying and
/// indicating, with descriptors.
private let fuzzDatabase: AttributeDatabase = {
    let setup = ServerSetup(name: "Fuzz", appearance: 0x0080, services: [
        ServedService(uuid: BluetoothUUID(0x180F), characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: [87]),
        ]),
        ServedService(uuid: BluetoothUUID("5E7F1000-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A3D), properties: [.read, .write, .writeWithoutResponse, .indicate],
                                 value: Array("hello".utf8), maximumLength: 300, userDescription: "Greeting"),
            ServedCharacteristic(uuid: BluetoothUUID(0x2A3E), properties: [.read], readSecurity: .encrypted, value: [1]),
            ServedCharacteristic(uuid: BluetoothUUID(0x2A3F), properties: [.read, .write], writeSecurity: .authenticated, value: [2]),
            ServedCharacteristic(uuid: BluetoothUUID(0x2A40), properties: [.read], value: (0..<300).map { UInt8($0 % 256) }),
        ]),
    ])
    return try! AttributeDatabase(setup, crypto: FuzzCrypto())
}()

/// One PDU to the server, on an open link and then an encrypted one: every request is answered
/// by its response or an Error Response naming it, within the MTU; nothing else is answered.
private func fuzzServer(_ server: inout ATTServer, _ payload: [UInt8]) {
    for encrypted in [false, true] {
        server.security = LinkSecurity(encrypted: encrypted, authenticated: encrypted)
        let (answer, _) = server.receive(payload)
        guard let answer else { continue }
        precondition(answer.count <= max(server.mtu, 23) || answer.first == 0x03, "an answer longer than the MTU")
        let request = payload.first ?? 0
        precondition(ATTPDU.requestOpcodes.contains(request) || request & 0x40 == 0, "a command was answered")
        precondition(answer.first == request &+ 1 || (answer.first == 0x01 && answer.dropFirst().first == request),
                     "an answer that does not answer the request")
    }
}

/// Stand-in cryptography of the right sizes, so the fuzzer reaches every state without AES.
private struct FuzzCrypto: PairingCrypto {
    struct Pair: PairingKeyPair {
        let x = [UInt8](repeating: 2, count: 32)
        let y = [UInt8](repeating: 3, count: 32)
        func dhKey(peerX: [UInt8], peerY: [UInt8]) throws -> [UInt8] { peerX }
    }

    func random(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
    func makeKeyPair() -> any PairingKeyPair { Pair() }
    func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, ia: [UInt8], rat: UInt8, ra: [UInt8]) throws -> [UInt8] { r }
    func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) throws -> [UInt8] { r1 }
    func f4(u: [UInt8], v: [UInt8], x: [UInt8], z: UInt8) throws -> [UInt8] { x }
    func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) throws -> (macKey: [UInt8], ltk: [UInt8]) { (n1, n2) }
    func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8], a1: [UInt8], a2: [UInt8]) throws -> [UInt8] { n1 }
    func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) throws -> UInt32 { 42 }
    func aesCMAC(key: [UInt8], message: [UInt8]) throws -> [UInt8] { [UInt8](repeating: 5, count: 16) }
}

/// Opens every "encrypted" frame as its own plaintext, so what follows decryption is fuzzed too.
struct FuzzSensorKeys: SensorKeys {
    func key(for address: String) -> [UInt8]? { [UInt8](repeating: 7, count: 16) }
    func ccmOpen(key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], associated: [UInt8]) -> [UInt8]? {
        tag.first.map { $0 & 1 == 0 } == true ? ciphertext : nil
    }
    func ctr(key: [UInt8], counter: [UInt8], data: [UInt8]) -> [UInt8]? { data }
}

/// The bytes as the service data of every UUID a family reads and as every company's block a
/// family reads, with and without keys: read or refused, never a trap, never a value that is not
/// a number, never a state other than 0 or 1.
func fuzzSensors(_ body: [UInt8]) {
    // Every block a family reads, from the families themselves, and one company none names
    // for the families that read any company's block.
    // One UUID none names, for the families that read any service's data.
    let services = SensorDecoders.byService.keys.sorted() + ["FFF9"]
    let companies = SensorDecoders.byCompany.keys.sorted() + [0x0757]
    // Families told by a listed service (Mopeka, Govee H5055, Jaalee, SensorPush) see them all.
    let listed = ["FEE5", "5550", "F525", "EF090000-11D6-42BA-93B8-9DD7EC090AB0", "EF090000-11D6-42BA-93B8-9DD7EC090AA9"]
        .map { ServiceID(BluetoothUUID($0)!, name: nil) }
    var frames = services.map { SensorFrame(address: "A4:C1:38:00:11:22", name: nil, manufacturerData: [],
                                           serviceData: [ServiceID(BluetoothUUID($0)!, name: nil): body]) }
    for name in ["GVH5101", "GVH5106_1234", "sps", "TP357 (2142)", "iBBQ", "SensorPush HTP.xw", "Aranet2 1A2B", "P T EN 888444", "P RHT 1", "s"] {
        frames += companies.map { SensorFrame(address: "A4:C1:38:00:11:22", name: name,
                                              manufacturerData: [ManufacturerData(companyID: $0, companyName: "", data: body)],
                                              serviceData: [:], services: listed) }
    }
    // SwitchBot's outdoor meter: its type in the service data, its readings in the company block.
    for head: UInt8 in [0x77, 0x73, 0x64] {
        frames.append(SensorFrame(address: "", name: nil, manufacturerData: [ManufacturerData(companyID: 0x0969, companyName: "", data: body)],
                                  serviceData: [ServiceID(BluetoothUUID(0xFD3D), name: nil): [head] + body.prefix(8)]))
    }
    // The app decodes before it knows the address: MiBeacon then trusts the one the frame carries.
    frames.append(SensorFrame(address: "", name: nil, manufacturerData: [], serviceData: [ServiceID(BluetoothUUID(0xFE95), name: nil): body]))
    for frame in frames {
        for keys in [nil, FuzzSensorKeys() as SensorKeys?] {
            guard let data = SensorDecoders.decode(frame, keys: keys) else { continue }
            for reading in data.readings {
                precondition(reading.value.isFinite, "a reading that is not a number")
                if reading.quantity.kind == .binary { precondition(reading.value == 0 || reading.value == 1, "a state other than 0 or 1") }
            }
            _ = data.named
        }
    }
}
