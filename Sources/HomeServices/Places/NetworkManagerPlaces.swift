// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation

/// Where the machine is, told by the network it is on: NetworkManager's primary connection
/// over the system bus, a Wi-Fi network by its name and access point (SSID and BSSID), another
/// by its gateway or, failing that, its profile. Only a salted hash of it leaves this type.
@MainActor
public final class NetworkManagerPlaces: PlaceSource {
    public private(set) var current: String?
    public private(set) var isAvailable = false
    /// Runs after every change of `current`.
    public var onChange: (() -> Void)?

    private let connection: DBusConnection?
    private let hash: (String) -> String
    private var poller: Task<Void, Never>?
    private static let service = "org.freedesktop.NetworkManager"
    private static let manager = "/org/freedesktop/NetworkManager"

    /// Reads the place now and again every `interval`; `hash` turns a network's description into
    /// the opaque place (a salted SHA-256 in the app). `address` is the bus, the system's by default.
    public init(hash: @escaping (String) -> String, interval: Duration = .seconds(15), address: String? = nil) {
        self.hash = hash
        connection = try? DBusConnection(address: address)
        poller = Task { [weak self] in
            while !Task.isCancelled {
                await self?.refresh()
                try? await Task.sleep(for: interval)
            }
        }
    }

    isolated deinit {
        poller?.cancel()
        connection?.close()
    }

    /// Asks NetworkManager again now.
    public func refresh() async {
        let description = await describe()
        let place = description.map(hash)
        if place != current {
            current = place
            onChange?()
        }
    }

    /// The primary network in words only this type sees; nil without NetworkManager or a network.
    private func describe() async -> String? {
        guard let connection else {
            isAvailable = false
            return nil
        }
        do {
            // Its state answers wherever NetworkManager runs; a missing property is no missing service.
            _ = try await property(connection, Self.manager, "org.freedesktop.NetworkManager", "State")
            isAvailable = true
            var active = try? await property(connection, Self.manager, "org.freedesktop.NetworkManager", "PrimaryConnection")?.stringValue
            if active == nil || active == "/" {
                // Older NetworkManager (and its stand-in) may name no primary: the first active one.
                active = try await property(connection, Self.manager, "org.freedesktop.NetworkManager", "ActiveConnections")?
                    .items?.first?.stringValue
            }
            guard let active, active != "/" else { return nil }
            let interface = "org.freedesktop.NetworkManager.Connection.Active"
            let type = try await property(connection, active, interface, "Type")?.stringValue ?? ""
            if type == "802-11-wireless", let ap = try await property(connection, active, interface, "SpecificObject")?.stringValue, ap != "/" {
                let apInterface = "org.freedesktop.NetworkManager.AccessPoint"
                let ssid = try await property(connection, ap, apInterface, "Ssid")?.items?.compactMap { item -> UInt8? in
                    if case .byte(let b) = item { return b } else { return nil }
                } ?? []
                let bssid = try await property(connection, ap, apInterface, "HwAddress")?.stringValue ?? ""
                return "wifi:\(Hex.compact(ssid))/\(bssid.uppercased())"
            }
            if let config = try await property(connection, active, interface, "Ip4Config")?.stringValue, config != "/",
               let gateway = try await property(connection, config, "org.freedesktop.NetworkManager.IP4Config", "Gateway")?.stringValue,
               !gateway.isEmpty {
                return "gateway:\(gateway)"
            }
            return try await property(connection, active, interface, "Uuid")?.stringValue.map { "profile:\($0)" }
        } catch {
            isAvailable = false
            return nil
        }
    }

    private func property(_ connection: DBusConnection, _ path: String, _ interface: String, _ name: String) async throws(DBusError) -> DBusValue? {
        let reply = try await connection.call(service: Self.service, path: path, interface: "org.freedesktop.DBus.Properties",
                                              method: "Get", args: [.string(interface), .string(name)], timeout: .seconds(5))
        return reply.items?.first?.unwrapped
    }
}
