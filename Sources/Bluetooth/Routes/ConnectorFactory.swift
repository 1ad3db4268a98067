// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Makes the connector a source allows.
public enum ConnectorFactory {
    /// A connector on `link` for the H4 sources (the link the scanner shares, from
    /// `ScannerFactory.link(for:)`), through `bus` for `bluez` and `auto` (from `ScannerFactory.bus(for:)`),
    /// or a connector that explains why `source` cannot connect. On the H4 sources a device is
    /// reached where `addresses` last heard it (BlueZ follows addresses itself).
    public static func make(_ source: ScanSource, link: HCILink?, bus: BlueZBus? = nil, addresses: HeardAddresses? = nil,
                            log: @escaping @Sendable (String) -> Void = { _ in }) -> DeviceConnector {
        switch source {
        case .bluez(let adapter):
            return BlueZConnector(bus: bus ?? BlueZBus(), adapter: adapter, log: log)
        case .auto:
            // Connections always go through BlueZ: on a raw socket bluetoothd would act on them too.
            return BlueZConnector(bus: bus ?? BlueZBus(), log: log)
        case .h4Unix, .h4TCP, .h4Serial:
            guard let link else { return RefusingConnector(.notSupported(L10n.tr("There is no link to the Bluetooth adapter."))) }
            let connector = HCILinkConnector(link: link, log: log)
            connector.addresses = addresses
            return connector
        case .hci:
            // On a raw socket the kernel and bluetoothd act on every connection made there too.
            return RefusingConnector(.notSupported(L10n.tr(
                "Connecting is not possible over a raw HCI socket, because the system’s Bluetooth service would act on the connection too. Use the BlueZ source (--source bluez) to connect.")))
        case .btsnoop:
            return RefusingConnector(.notSupported(L10n.tr("A replayed capture cannot connect to devices.")))
        case .mqtt:
            return RefusingConnector(.notSupported(L10n.tr("Gateways only report what they hear: connect through this computer’s adapter.")))
        case .demo:
            return DemoChatConnector()
        }
    }
}

/// A connector for a source that cannot connect: every attempt fails at once with `reason`.
public final class RefusingConnector: DeviceConnector, @unchecked Sendable {
    private let reason: ConnectionFailure
    private let streams = ConnectionStreams()

    /// Creates a connector that always fails with `reason`.
    public init(_ reason: ConnectionFailure) { self.reason = reason }

    /// Why this connector cannot connect, for a page to show before the user tries.
    public var unavailableReason: String? { reason.message }

    public var events: Feed<ConnectionEvent> { streams.events }
    public var state: ConnectionState { streams.state }
    public func connect(to device: DeviceID) { streams.set(.failed(reason)) }
    public func cancel() { streams.set(.idle) }
    public func disconnect() { streams.set(.idle) }
    public func send(_ text: String) async throws(ChatSendError) { throw .notConnected }
}
