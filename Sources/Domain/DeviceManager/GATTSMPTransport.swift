// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// MCUmgr's SMP over GATT (Zephyr's smp_transport.rst, "Bluetooth"): the SMP characteristic
/// of the connected device takes each request as writes without response of at most
/// ATT_MTU − 3 bytes, and notifies the answers, which the client reassembles by their headers.
/// It works through the connection port, so both routes serve it: FavBlue's own host writes
/// commands on its ATT bearer; BlueZ's WriteValue and StartNotify.
public final class GATTSMPTransport: SMPTransport, @unchecked Sendable {
    /// MCUmgr's service and its one characteristic.
    public static let service = BluetoothUUID("8D53DC1D-1DB7-4CD3-868B-8A527460AA84")!
    public static let characteristic = BluetoothUUID("DA2E7828-FBCE-4E01-AE9E-261174997C48")!

    public let received = Feed<[UInt8]>()
    /// A message's own limit: the link cuts it into writes.
    public let maximumMessage = SMPMessage.headerLength + 0xFFFF
    private let connector: any DeviceConnector
    private let device: DeviceID
    private let valueHandle: UInt16
    private let cccd: UInt16
    private let writeLength: Int
    private var listening: Task<Void, Never>?

    /// The SMP characteristic's value handle, whose notifications are the answers.
    public var notifications: UInt16 { valueHandle }

    private init(connector: any DeviceConnector, device: DeviceID, valueHandle: UInt16, cccd: UInt16, writeLength: Int) {
        self.connector = connector
        self.device = device
        self.valueHandle = valueHandle
        self.cccd = cccd
        self.writeLength = writeLength
    }

    /// The SMP characteristic in `services` of the connected `device`, subscribed to; nil where
    /// the device offers no Device Manager (a group it lacks is not an error).
    /// With `listening` false the caller hands each notification to `received` itself (the app,
    /// whose connection's events one reader takes), and finishes it when the link ends.
    public static func open(_ connector: any DeviceConnector, device: DeviceID, services: [GATTService],
                            listening: Bool = true) async throws(SMPProblem) -> GATTSMPTransport? {
        guard let smp = services.first(where: { $0.uuid == service })?.characteristics.first(where: { $0.uuid == characteristic }) else {
            return nil
        }
        // BlueZ keeps the configuration descriptor to itself (StartNotify writes it): a
        // characteristic that notifies is enough there.
        guard let cccd = smp.descriptors.first(where: { $0.uuid == BluetoothUUID(0x2902) })?.handle ?? (smp.properties.contains(.notify) ? 0 : nil) else {
            throw .unexpected(L10n.tr("The device's Device Manager characteristic cannot notify, so its answers cannot come."))
        }
        let transport = GATTSMPTransport(connector: connector, device: device, valueHandle: smp.valueHandle, cccd: cccd,
                                         writeLength: max(20, await connector.writeCommandLimit()))
        if listening { transport.listen() }
        do {
            try await connector.subscribe(to: smp.valueHandle, cccd: cccd, indicate: false, on: true)
        } catch {
            await transport.close()
            if case .device(_, wantsPairing: true) = error { throw .needsPairing }
            throw .disconnected(error.message)
        }
        return transport
    }

    private func listen() {
        let events = connector.events
        let (device, handle, received) = (self.device, valueHandle, self.received)
        listening = Task {
            for await event in events {
                switch event {
                case .notified(let from, handle, let value, _) where from == device:
                    received.yield(value)
                case .state(let state):
                    if case .connected = state { continue }
                    if case .connecting = state { continue }
                    received.finish()
                    return
                default:
                    continue
                }
            }
            received.finish()
        }
    }

    public func send(_ message: [UInt8]) async throws(SMPProblem) {
        var at = 0
        while at < message.count {
            let part = Array(message[at..<min(at + writeLength, message.count)])
            do { try await connector.writeValue(part, at: valueHandle, withResponse: false) } catch {
                throw .disconnected(error.message)
            }
            at += part.count
        }
    }

    public func close() async {
        listening?.cancel()
        received.finish()
    }
}
