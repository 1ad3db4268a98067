// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import ArgumentParser
import Bluetooth
import Domain
import Foundation
import SecurityToolbox

/// What the peripheral commands share: the source, the file, the events as JSON lines, and the
/// wait until Ctrl+C.
enum PeripheralRun {
    /// The peripheral a source allows, or the reason it cannot be one.
    static func peripheral(_ source: String, verbose: Bool, pairing: Bool = false) -> DevicePeripheral {
        let parsed: ScanSource
        do { parsed = try ScanSource(parsing: source) } catch { FavBlueScan.exit(saying: FavBlueScan.explain(error)) }
        let log: @Sendable (String) -> Void = { if verbose { FileHandle.standardError.write(Data("favblue-scan: \($0)\n".utf8)) } }
        let peripheral = PeripheralFactory.make(parsed, link: ScannerFactory.link(for: parsed, crypto: ToolboxPairingCrypto(), log: log), bus: ScannerFactory.bus(for: parsed),
                                                security: pairing ? TerminalPairing.security() : nil, log: log)
        if let reason = peripheral.unavailableReason { FavBlueScan.exit(saying: reason) }
        // On BlueZ the system's agent asks; on FavBlue's own host, the terminal.
        if pairing, let own = peripheral as? HCIPeripheral { own.ask = TerminalPairing.ask }
        return peripheral
    }

    /// The file, or a message naming its line and what is wrong.
    static func read(_ path: String) -> PeripheralFile {
        guard let data = FileManager.default.contents(atPath: path) else { FavBlueScan.exit(saying: "cannot read \(DeviceText.terminal(path))") }
        do { return try PeripheralFile.read(String(decoding: data, as: UTF8.self)) } catch {
            FavBlueScan.exit(saying: "\(DeviceText.terminal(path)): \(error.description)")
        }
    }

    /// One event as one JSON object on one line. What a central wrote goes as hex and as JSON text,
    /// its control characters escaped, so it never reaches a terminal as something that runs.
    static func line(_ event: PeripheralEvent, setup: ServerSetup?) -> String {
        var m: [JSONMember] = []
        func add(_ key: String, _ value: JSONValue) { m.append(JSONMember(key, JSONNode(value))) }
        func central(_ c: PeripheralCentral) {
            add("central", .string(c.id))
            if let address = c.address { add("address", .string(address)) }
        }
        func characteristic(_ id: ServedCharacteristicID) {
            guard let setup, id.service < setup.services.count, id.characteristic < setup.services[id.service].characteristics.count else { return }
            add("service", .string(setup.services[id.service].uuid.text))
            add("characteristic", .string(setup.services[id.service].characteristics[id.characteristic].uuid.text))
        }
        switch event {
        case .advertising(let id, let on): add("event", .string(on ? "advertising" : "stopped")); add("advertisement", .string(id))
        case .advertisingFailed(let id, let reason): add("event", .string("failed")); add("advertisement", .string(id)); add("reason", .string(reason))
        case .connected(let c): add("event", .string("connected")); central(c)
        case .mtu(let c, let mtu): add("event", .string("mtu")); central(c); add("mtu", .number(Double(mtu)))
        case .read(let c, let id): add("event", .string("read")); central(c); characteristic(id)
        case .wrote(let c, let id, let value, let withResponse):
            add("event", .string("write")); central(c); characteristic(id)
            add("hex", .string(Hex.lower(value)))
            add("text", .string(String(decoding: value, as: UTF8.self)))
            add("withResponse", .bool(withResponse))
        case .subscribed(let c, let id, let indicate): add("event", .string("subscribed")); central(c); characteristic(id); add("indicate", .bool(indicate))
        case .unsubscribed(let c, let id): add("event", .string("unsubscribed")); central(c); characteristic(id)
        case .confirmed(let c, let id): add("event", .string("confirmed")); central(c); characteristic(id)
        case .sent(let c, let id, let value, let indicate):
            add("event", .string(indicate ? "indicated" : "notified")); central(c); characteristic(id); add("hex", .string(Hex.lower(value)))
        case .encrypted(let c, let authenticated): add("event", .string("encrypted")); central(c); add("authenticated", .bool(authenticated))
        case .refused(let c, let why): add("event", .string("refused")); central(c); add("reason", .string(why))
        case .disconnected(let c, let reason): add("event", .string("disconnected")); central(c); add("reason", .string(reason))
        case .ended(let why): add("event", .string("ended")); add("reason", .string(why))
        }
        return JSONDocument.line(JSONNode(.object(m)))
    }

    /// The advertisements to send: those named with --advertisement (by their label), else the
    /// ones the file says were on. A name no advertisement has ends the command.
    static func chosen(_ file: PeripheralFile, named: [String], path: String) -> [Advertisement] {
        guard !named.isEmpty else { return file.advertisementsOn.map { $0.named(by: file.server) } }
        var out: [Advertisement] = []
        for name in named {
            let matching = file.advertisements.filter { $0.title == name }
            if matching.isEmpty { FavBlueScan.exit(saying: "\(DeviceText.terminal(path)) holds no advertisement named “\(DeviceText.terminal(name))”") }
            out += matching.filter { ad in !out.contains { $0.id == ad.id } }
        }
        return out.map { $0.named(by: file.server) }
    }

    /// Starts each advertisement, or ends the command saying which could not go out.
    static func start(_ advertisements: [Advertisement], on peripheral: DevicePeripheral) async {
        for ad in advertisements {
            do { try await peripheral.startAdvertising(ad) } catch {
                FavBlueScan.exit(saying: "“\(DeviceText.terminal(ad.title))” cannot be sent: \(error.message)", code: 3)
            }
        }
    }

    /// Prints every event until Ctrl+C (or `duration` seconds), then stops what runs.
    static func run(_ peripheral: DevicePeripheral, setup: ServerSetup?, advertisements: [Advertisement], duration: Double?) async {
        let printing = Task.detached {
            for await event in peripheral.events {
                // Written at once, whole lines, so a pipe reads each event as it happens.
                FileHandle.standardOutput.write(Data((line(event, setup: setup) + "\n").utf8))
            }
        }
        let stop = DispatchSemaphore(value: 0)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        if let duration { DispatchQueue.global().asyncAfter(deadline: .now() + duration) { stop.signal() } }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                stop.wait()
                done.resume()
            }
        }
        // The sources live until the stop: a release build let them go at their last use, and
        // with the signals ignored, Ctrl+C and SIGTERM did nothing.
        withExtendedLifetime(sources) {}
        for ad in advertisements { await peripheral.stopAdvertising(id: ad.id) }
        if setup != nil { await peripheral.stopServing() }
        // The last events (stopped) are printed before the command ends.
        try? await Task.sleep(nanoseconds: 200_000_000)
        printing.cancel()
    }
}

/// What `advertise` and `serve` take besides the file.
struct PeripheralOptions: ParsableArguments {
    @Option(help: "bluez, bluez:hciN, h4-unix:PATH, h4-tcp:HOST:PORT or h4-serial:DEV[@BAUD] (auto: BlueZ).")
    var source = "auto"

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(help: "Log each step on stderr.")
    var verbose = false

    @Option(name: .customLong("advertisement"), help: ArgumentHelp(
        "Send the advertisement with this label, whether it was on or off (again for more). Without it, those the file says are on.",
        valueName: "name"))
    var advertisements: [String] = []
}

/// `favblue-scan advertise FILE`: sends a file's advertisements until Ctrl+C.
struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Send the advertisements of a FavBlue peripheral file until Ctrl+C, printing one JSON line for each event.")

    @Argument(help: ArgumentHelp("A FavBlue peripheral file (docs/peripheral-format.md).", valueName: "file"))
    var file: String

    @OptionGroup var options: PeripheralOptions

    func run() async throws {
        let contents = PeripheralRun.read(file)
        guard !contents.advertisements.isEmpty else { FavBlueScan.exit(saying: "\(DeviceText.terminal(file)) holds no advertisement") }
        let chosen = PeripheralRun.chosen(contents, named: options.advertisements, path: file)
        guard !chosen.isEmpty else {
            FavBlueScan.exit(saying: "\(DeviceText.terminal(file)) holds no advertisement that is on: name one with --advertisement")
        }
        let peripheral = PeripheralRun.peripheral(options.source, verbose: options.verbose)
        await PeripheralRun.start(chosen, on: peripheral)
        await PeripheralRun.run(peripheral, setup: nil, advertisements: chosen, duration: options.duration)
    }
}

/// `favblue-scan serve FILE`: serves a file's GATT server, advertised, until Ctrl+C.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the GATT server of a FavBlue peripheral file or an nRF Connect for Desktop server setup until Ctrl+C.",
        discussion: "It sends the file's advertisements that are on (or those named with --advertisement); with none, it advertises connectably under the server's name (GAP Device Name). One JSON line is printed for each event: a central connected, a read, a write (its bytes as hex and as JSON text), a subscription. A central may pair: Just Works is accepted; a number to compare or a code to type is asked on standard error and answered on standard input (--no-pairing refuses every pairing).")

    @Argument(help: ArgumentHelp("A FavBlue peripheral file, or an nRF Connect for Desktop server setup (Save setup…).", valueName: "file"))
    var file: String

    @OptionGroup var options: PeripheralOptions

    @Flag(help: "Refuse every central's pairing (Pairing Not Supported).")
    var noPairing = false

    func run() async throws {
        let contents = PeripheralRun.read(file)
        guard let setup = contents.server else { FavBlueScan.exit(saying: "\(DeviceText.terminal(file)) holds no server") }
        let peripheral = PeripheralRun.peripheral(options.source, verbose: options.verbose, pairing: !noPairing)
        do { try await peripheral.serve(setup) } catch { FavBlueScan.exit(saying: "the server cannot run: \(error.message)", code: 3) }
        let chosen = PeripheralRun.chosen(contents, named: options.advertisements, path: file)
        let advertisements = chosen.isEmpty ? [Advertisement.announcing(setup)] : chosen
        await PeripheralRun.start(advertisements, on: peripheral)
        await PeripheralRun.run(peripheral, setup: setup, advertisements: advertisements, duration: options.duration)
    }
}

/// `favblue-scan adapter`: what the adapter is and can do.
struct AdapterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapter",
        abstract: "Print what the adapter is and can do: maker, Bluetooth version, address, LE features, advertising sets and length, roles.")

    @Option(help: "bluez, bluez:hciN, h4-unix:PATH, h4-tcp:HOST:PORT or h4-serial:DEV[@BAUD] (auto: BlueZ).")
    var source = "auto"

    @Flag(help: "Print one JSON document.")
    var json = false

    @Flag(help: "Log each step on stderr.")
    var verbose = false

    func run() async throws {
        let peripheral = PeripheralRun.peripheral(source, verbose: verbose)
        let facts: AdapterFacts
        do { facts = try await peripheral.adapterFacts() } catch { FavBlueScan.exit(saying: error.message, code: 3) }
        FileHandle.standardOutput.write(Data((json ? AdapterReport.json(facts) : AdapterReport.text(facts)).utf8))
    }
}
