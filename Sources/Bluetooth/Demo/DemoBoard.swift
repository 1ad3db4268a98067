// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The `demo` source's board: a Zephyr device with MCUboot and MCUmgr's SMP service, so the
/// Device Manager can be tried whole without hardware, a firmware update included (FavBlue
/// installs a newer image for it, `demo-board-1.1.0.bin`). `DemoScanner` lists it;
/// `DemoChatConnector` connects to it and hands its SMP requests to `DemoBoardFirmware`.
public enum DemoBoard {
    /// Its address: static random, as the demo chat device's.
    public static let id = DeviceID(octets: [0xC0, 0xFA, 0xB1, 0x0E, 0xDE, 0x02], kind: .leRandom)

    /// The name it advertises; a device's name is data, never translated.
    public static let name = "FavBlue Demo Board"

    /// The SMP characteristic's value handle and its configuration descriptor in `tree`.
    static let smpHandle: UInt16 = 8
    static let smpConfiguration: UInt16 = 9

    static var services: [ServiceID] {
        [BluetoothUUID(0x1800).serviceID, ServiceID(GATTSMPTransport.service, name: nil)]
    }

    /// Its GATT tree: GAP and MCUmgr's SMP service.
    static var tree: [GATTService] {
        func named(_ uuid: BluetoothUUID) -> String? { AttributeNames.characteristic(uuid) }
        return [
            GATTService(uuid: BluetoothUUID(0x1800), name: ServiceNames.name(0x1800), start: 1, end: 5, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A00), name: named(BluetoothUUID(0x2A00)), handle: 2, valueHandle: 3, properties: [.read]),
                GATTCharacteristic(uuid: BluetoothUUID(0x2A01), name: named(BluetoothUUID(0x2A01)), handle: 4, valueHandle: 5, properties: [.read]),
            ]),
            // Named as a real board's are where FavBlue discovers them, not "Unknown".
            GATTService(uuid: GATTSMPTransport.service, name: GATTSMPTransport.service.serviceID.name, start: 6, end: smpConfiguration, characteristics: [
                GATTCharacteristic(uuid: GATTSMPTransport.characteristic, name: named(GATTSMPTransport.characteristic), handle: 7, valueHandle: smpHandle,
                                   properties: [.writeWithoutResponse, .notify],
                                   descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), name: AttributeNames.descriptor(BluetoothUUID.clientCharacteristicConfiguration), handle: smpConfiguration)]),
            ]),
        ]
    }

    static func value(at handle: UInt16) -> [UInt8]? {
        switch handle {
        case 3: return Array(name.utf8)
        case 5: return [0x00, 0x00]
        default: return nil
        }
    }

    /// A board on the bench, a little further away than the chat device.
    static func rssi() -> Int { -61 + Int.random(in: -3...3) }

    /// An LE Extended Advertising Report: flags, the SMP service's UUID and the name.
    static func advertisingEvent(rssi: Int) -> [UInt8] {
        let uuid = GATTSMPTransport.service.wire
        let text = Array(name.utf8)
        let data: [UInt8] = [0x02, 0x01, 0x06] + [UInt8(uuid.count + 1), 0x07] + uuid + [UInt8(text.count + 1), 0x09] + text
        var report: [UInt8] = [0x0D, 1, 0x01, 0x00, 0x01] + id.wireBytes
        report += [0x01, 0x01, 0x00, 0x7F, UInt8(bitPattern: Int8(clamping: rssi)), 0x00, 0x00]
        report += [0x00] + [UInt8](repeating: 0, count: 6)
        report += [UInt8(data.count)] + data
        return [0x3E, UInt8(report.count)] + report
    }
}

/// What the demo board's MCUmgr answers, as Zephyr's os_mgmt and img_mgmt do: echo, reset,
/// parameters, bootloader, two slots, uploads at offsets (each image checked as MCUboot checks
/// it), test, confirm, erase; at a restart MCUboot swaps in the image marked to run, or swaps
/// back a test that was not confirmed. Every request is checked; a malformed one gets an error.
final class DemoBoardFirmware: @unchecked Sendable {
    struct Image {
        let version: String
        let hash: [UInt8]
    }

    static let bufferSize = 1024
    static let bufferCount = 4

    private let lock = NSLock()
    private var running = Image(version: "1.0.0", hash: Array("FavBlue demo board 1.0.0 image..".utf8))
    private var confirmed = true
    private var spare: Image?
    /// The spare image is marked to run at the next restart: once (false) or for good (true).
    private var pending: Bool?
    private var upload: (length: Int, data: [UInt8])?
    /// The next answer restarts the board.
    private(set) var restarting = false

    /// The answer to one whole request, and whether the board restarts after sending it.
    func answer(_ request: [UInt8]) -> (answer: [UInt8], restarts: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard let message = try? SMPMessage.decode(request) else {
            return (reply(SMPMessage(operation: .writeResponse, group: 0, sequence: request.count > 6 ? request[6] : 0, command: 0,
                                     body: .object(["rc": .unsigned(3)]))), false)
        }
        let body = handle(message)
        let operation: SMPMessage.Operation = message.operation == .read ? .readResponse : .writeResponse
        let answer = reply(SMPMessage(operation: operation, version: message.version, group: message.group,
                                      sequence: message.sequence, command: message.command, body: body))
        defer { restarting = false }
        return (answer, restarting)
    }

    private func reply(_ message: SMPMessage) -> [UInt8] { message.bytes }

    private func error(_ group: UInt16, _ rc: UInt64) -> CBOR {
        .object(["err": .object(["group": .unsigned(UInt64(group)), "rc": .unsigned(rc)])])
    }

    private func handle(_ m: SMPMessage) -> CBOR {
        switch (m.group, m.command, m.operation) {
        case (0, 0, _): return .object(["r": m.body["d"] ?? .text("")])
        case (0, 5, .write):
            restarting = true
            return .map([])
        case (0, 6, .read):
            return .object(["buf_size": .unsigned(UInt64(Self.bufferSize)), "buf_count": .unsigned(UInt64(Self.bufferCount))])
        case (0, 8, .read): return .object(["bootloader": .text("MCUboot")])
        case (1, 0, .read): return slots()
        case (1, 0, .write): return setState(m.body)
        case (1, 1, .write): return part(m.body)
        case (1, 5, .write):
            guard pending == nil else { return error(1, 28) }
            spare = nil
            return .map([])
        default:
            // Zephyr's smp.c: a group or command it lacks is MCUmgr's common "not supported".
            return .object(["rc": .unsigned(8)])
        }
    }

    private func slots() -> CBOR {
        var list: [CBOR] = [.object([
            "image": .unsigned(0), "slot": .unsigned(0), "version": .text(running.version), "hash": .bytes(running.hash),
            "bootable": .bool(true), "pending": .bool(false), "confirmed": .bool(confirmed), "active": .bool(true),
            "permanent": .bool(false),
        ])]
        if let spare {
            list.append(.object([
                "image": .unsigned(0), "slot": .unsigned(1), "version": .text(spare.version), "hash": .bytes(spare.hash),
                "bootable": .bool(true), "pending": .bool(pending != nil), "confirmed": .bool(false), "active": .bool(false),
                "permanent": .bool(pending == true),
            ]))
        }
        return .object(["images": .array(list)])
    }

    private func setState(_ body: CBOR) -> CBOR {
        let confirm = body["confirm"]?.bool ?? false
        let hash = body["hash"]?.bytes
        if confirm, hash == nil || hash == running.hash {
            confirmed = true
            return slots()
        }
        guard let spare, let hash, hash == spare.hash else { return error(1, 3) }
        pending = confirm
        return slots()
    }

    private func part(_ body: CBOR) -> CBOR {
        guard let off = body["off"]?.int, let data = body["data"]?.bytes else { return .object(["rc": .unsigned(3)]) }
        if off == 0 {
            guard let length = body["len"]?.int, length > 0, length <= 1 << 20 else { return error(1, 21) }
            guard pending == nil else { return error(1, 28) }
            upload = (Int(length), [])
        }
        guard var current = upload, Int(off) == current.data.count else {
            return .object(["off": .unsigned(UInt64(upload?.data.count ?? 0))])
        }
        current.data += data.prefix(current.length - current.data.count)
        upload = current
        guard current.data.count >= current.length else { return .object(["off": .unsigned(UInt64(current.data.count))]) }
        upload = nil
        guard let image = try? MCUbootImage.read(current.data), let hash = image.hash else { return error(1, 22) }
        spare = Image(version: image.version.description, hash: hash)
        return .object(["off": .unsigned(UInt64(current.length))])
    }

    /// MCUboot at start-up.
    func restart() {
        lock.lock()
        defer { lock.unlock() }
        if let pending, let spare {
            let old = running
            running = spare
            confirmed = pending
            self.spare = old
            self.pending = nil
        } else if !confirmed, let spare {
            let old = running
            running = spare
            confirmed = true
            self.spare = old
        }
    }
}
