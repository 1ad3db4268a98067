// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import ArgumentParser
import Bluetooth
import Domain
import Foundation
import SecurityToolbox

/// `favblue-scan gatt ADDRESS`: connects, discovers the whole GATT tree, optionally reads every
/// readable value, and prints the tree as text or as one JSON document.
struct GATTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt",
        abstract: "Connect to a device and print its services, characteristics and descriptors.")

    @Argument(help: ArgumentHelp("The device: AA:BB:CC:DD:EE:FF (a public address) or AA:BB:CC:DD:EE:FF/le-random.",
                                 valueName: "address"))
    var address: String

    @Option(help: "bluez, bluez:hciN, h4-unix:PATH, h4-tcp:HOST:PORT or h4-serial:DEV[@BAUD] (auto: BlueZ).")
    var source = "auto"

    @Flag(help: "Read every readable value (some devices drop a link that reads everything at once).")
    var read = false

    @Flag(help: "Print one JSON document with handles, UUIDs, names, properties and values (hex and decoded).")
    var json = false

    @Option(help: "Seconds to wait for the connection.")
    var timeout: Double = 20

    @Flag(help: "Log each step on stderr: the HCI commands, where the device is reached, the resolving list.")
    var verbose = false

    @Option(help: ArgumentHelp("A file of Identity Resolving Keys, as for `favblue-scan scan --keys`.",
                               discussion: "Given a device's identity address and its key, FavBlue finds the private address the device uses now and connects there, following it when it changes meanwhile (H4 sources; BlueZ does this itself)."))
    var keys: String?

    func run() async throws {
        let parsed: ScanSource
        do { parsed = try ScanSource(parsing: source) } catch { FavBlueScan.exit(saying: FavBlueScan.explain(error)) }
        let device: DeviceID
        do {
            device = address.contains("/") ? try DeviceID(storageKey: address) : try DeviceID(parsing: address, kind: .lePublic)
        } catch {
            FavBlueScan.exit(saying: "\(DeviceText.terminal(address)) is not an address like AA:BB:CC:DD:EE:FF or AA:BB:CC:DD:EE:FF/le-random")
        }
        let verbose = self.verbose
        let log: @Sendable (String) -> Void = { if verbose { FileHandle.standardError.write(Data("favblue-scan: \($0)\n".utf8)) } }
        let link = ScannerFactory.link(for: parsed, crypto: ToolboxPairingCrypto(), log: log)
        let addresses = HeardAddresses()
        let connector = ConnectorFactory.make(parsed, link: link, bus: ScannerFactory.bus(for: parsed), addresses: addresses, log: log)
        if let reason = connector.unavailableReason { FavBlueScan.exit(saying: reason) }
        var follower: HCIScanner?
        if let keys, let link {
            let bonds: [ResolvingBond]
            do { bonds = try FavBlueScan.readKeys(keys) } catch { FavBlueScan.exit(saying: error.message) }
            if bonds.contains(where: { $0.identity == device }) {
                follower = Self.follow(device, bonds: bonds, on: link, into: addresses)
                if !(await Self.heard(device, in: addresses, within: timeout)) {
                    FavBlueScan.exit(saying: "\(device.address) was not heard at any private address its key resolves within \(Int(timeout)) s")
                }
            }
        }
        defer { follower?.stop() }
        let events = connector.events
        connector.connect(to: device)
        switch await Self.connected(events, within: timeout) {
        case .success: break
        case .failure(let why): FavBlueScan.exit(saying: "could not connect to \(device.address): \(why)")
        }
        defer { connector.disconnect() }
        let tree: [GATTService]
        do { tree = try await connector.discoverServices() } catch { FavBlueScan.exit(saying: "could not list the services: \(error.message)") }
        var values: [UInt16: Result<[UInt8], GATTError>] = [:]
        if read {
            let handles = tree.flatMap(\.characteristics).filter { $0.properties.contains(.read) }.map(\.valueHandle)
            for (handle, value) in zip(handles, await connector.readValues(at: handles)) { values[handle] = value }
        }
        log("discovered \(tree.count) services and read \(values.count) values")
        let printed = GATTPrint(device: device, tree: tree, values: values)
        Swift.print(json ? printed.json : printed.text, terminator: "")
        // Ends once the link is down (the controller's Disconnection Complete), not after a fixed wait.
        let ending = connector.events
        connector.disconnect()
        await Self.idle(ending, within: 2)
    }

    /// Waits for the connector to be idle again, or the timeout.
    static func idle(_ events: Feed<ConnectionEvent>, within seconds: Double) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    guard case .state(let state) = event else { continue }
                    if case .idle = state { return }
                    if case .failed = state { return }
                }
            }
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Scans on `link` beside the connection and notes each private address `keys` resolve to
    /// `identity`, so the connection goes where it is heard now and follows it.
    static func follow(_ identity: DeviceID, bonds: [ResolvingBond], on link: HCILink, into addresses: HeardAddresses) -> HCIScanner {
        let scanner = HCIScanner(link: link)
        let observations = scanner.observations
        Task.detached {
            var resolver = PrivateAddressResolver(hashing: AESAddressHashing(), bonds: bonds)
            for await o in observations where resolver.resolve(o.id) == identity {
                if addresses.current(identity) != o.id { addresses.note(o.id, for: identity) }
                // Counted: a resolving list that does not connect there is caught by it.
                addresses.count(o.id, for: identity)
            }
        }
        scanner.start()
        return scanner
    }

    /// Waits until `identity` is heard at a private address, or the timeout.
    static func heard(_ identity: DeviceID, in addresses: HeardAddresses, within seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while addresses.current(identity) == identity, Date() < deadline {
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return addresses.current(identity) != identity
    }

    /// Waits for `connected`, a failure, or the timeout.
    static func connected(_ events: Feed<ConnectionEvent>, within seconds: Double) async -> Result<Void, StringError> {
        await withTaskGroup(of: Result<Void, StringError>.self) { group in
            group.addTask {
                for await event in events {
                    guard case .state(let state) = event else { continue }
                    if case .connected = state { return .success(()) }
                    if case .failed(let failure) = state { return .failure(StringError(failure.message)) }
                }
                return .failure(StringError("the connection ended"))
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return .failure(StringError("no connection within \(Int(seconds)) s"))
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
    }

}

struct StringError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The tree as text for a terminal (device strings escaped) or as one JSON document.
struct GATTPrint {
    let device: DeviceID
    let tree: [GATTService]
    let values: [UInt16: Result<[UInt8], GATTError>]

    private static func handle(_ value: UInt16) -> String { String(format: "0x%04X", value) }
    private static func hex(_ bytes: [UInt8]) -> String { Hex.spaced(bytes) }
    private static let words: [(GATTProperties, String)] = [
        (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"), (.write, "write"),
        (.notify, "notify"), (.indicate, "indicate"), (.signedWrite, "signed-write"), (.extendedProperties, "extended-properties"),
    ]
    private static func properties(_ p: GATTProperties) -> [String] { words.filter { p.contains($0.0) }.map(\.1) }

    private static func decoded(_ uuid: BluetoothUUID, _ bytes: [UInt8]) -> String? {
        guard let short = uuid.short else { return nil }
        return CharacteristicValues.decode(short, bytes, company: CompanyNames.name).text
    }

    var text: String {
        var out = "\(device.address) (\(device.kind.rawValue))\n"
        for service in tree {
            out += "service \(service.uuid) \(service.name ?? "(unknown)")  \(Self.handle(service.start))–\(Self.handle(service.end))\n"
            for include in service.includes {
                out += "  includes \(include.uuid?.text ?? "?")  \(Self.handle(include.start))–\(Self.handle(include.end))\n"
            }
            for c in service.characteristics {
                out += "  characteristic \(c.uuid) \(c.name ?? "(unknown)")  \(Self.handle(c.valueHandle))  "
                    + Self.properties(c.properties).joined(separator: ",") + "\n"
                switch values[c.valueHandle] {
                case .success(let bytes)?:
                    let words = Self.decoded(c.uuid, bytes).map { "  " + DeviceText.terminal($0) } ?? ""
                    out += "    value \(bytes.isEmpty ? "(empty)" : Self.hex(bytes))\(words)\n"
                case .failure(let error)?:
                    out += "    value not read: \(error.message)\n"
                case nil: break
                }
                for d in c.descriptors {
                    out += "    descriptor \(d.uuid) \(d.name ?? "(unknown)")  \(Self.handle(d.handle))\n"
                }
            }
        }
        return out
    }

    var json: String {
        func object(_ c: GATTCharacteristic) -> [String: Any] {
            var o: [String: Any] = [
                "uuid": c.uuid.text, "name": c.name ?? NSNull(), "handle": Int(c.handle), "valueHandle": Int(c.valueHandle),
                "properties": Self.properties(c.properties),
                "descriptors": c.descriptors.map { ["uuid": $0.uuid.text, "name": $0.name ?? NSNull(), "handle": Int($0.handle)] as [String: Any] },
            ]
            switch values[c.valueHandle] {
            case .success(let bytes)?:
                let decoded: Any = Self.decoded(c.uuid, bytes) ?? NSNull()
                o["value"] = ["hex": bytes.map { String(format: "%02x", $0) }.joined(), "decoded": decoded] as [String: Any]
            case .failure(let error)?: o["error"] = error.message
            case nil: break
            }
            return o
        }
        let document: [String: Any] = [
            "address": device.address, "addressType": device.kind.rawValue,
            "services": tree.map { s in
                [
                    "uuid": s.uuid.text, "name": s.name ?? NSNull(), "start": Int(s.start), "end": Int(s.end),
                    "includes": s.includes.map { ["uuid": $0.uuid?.text ?? NSNull(), "start": Int($0.start), "end": Int($0.end)] as [String: Any] },
                    "characteristics": s.characteristics.map(object),
                ] as [String: Any]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
