// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # ScanCommand (the program `favblue-scan`)
//
// The scanner without a window: opens a source, collects what devices report,
// and prints one line per device when the source ends or the time is up.
// `favblue-scan gatt ADDRESS` connects to one device and prints its GATT tree.

import ArgumentParser
import Bluetooth
import Domain
import Foundation
import HomeServices
import SecurityToolbox

/// `favblue-scan`: its own small executable in a build tree, and a second name of `favblue` in
/// the installed package, which links the Swift runtime once for both.
public enum ScanProgram {
    /// Parses `arguments` (without the program's name) and runs the command; an error exits.
    public static func main(_ arguments: [String]) async {
        SensorCiphers.install(SensorAESBlock())
        Brokers.install()
        // The decoding-cost benchmark (Benchmarks/sensors) times a run without decoding.
        if ProcessInfo.processInfo.environment["FAVBLUE_SENSORS"] == "off" { SensorDecoders.isEnabled = false }
        await FavBlueScanCommand.main(arguments)
    }
}

struct FavBlueScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favblue-scan",
        abstract: "Find Bluetooth devices from a controller or a capture and list them, browse one device's services, or be a device: advertise and serve.",
        version: "favblue-scan \(Release.version)",
        subcommands: [FavBlueScan.self, GATTCommand.self, TrackersCommand.self, MQTTPasswordCommand.self,
                      AdvertiseCommand.self, ServeCommand.self, AdapterCommand.self, MCUmgrCommand.self, ImageInfoCommand.self],
        defaultSubcommand: FavBlueScan.self)
}

struct FavBlueScan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find Bluetooth devices from a controller or a capture and list them (the default).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, null }

    @Option(help: ArgumentHelp("auto, bluez, bluez:hciN, hciN, h4-unix:PATH, h4-tcp:HOST:PORT, h4-serial:DEV[@BAUD], btsnoop:PATH, demo or mqtt[s]://[USER@]HOST[:PORT]/PREFIX; give it again for several sources at once, NAME=SOURCE to name one",
                               discussion: "auto: the system's Bluetooth service (BlueZ over D-Bus) when it has an adapter, else the first raw HCI adapter. bluez: BlueZ's first adapter, no special rights needed; bluez:hciN: its adapter hciN. hciN: a raw HCI socket (needs cap_net_raw,cap_net_admin). mqtt: gateways publishing OpenMQTTGateway's BTtoMQTT messages to a broker, each named by its topic (mqtts: over TLS, ?ca=FILE for a CA of your own). With several sources, each JSON line lists under \"sources\" every source that heard the device."))
    var source: [String] = []

    @Option(help: "Stop after this many seconds (live sources run until interrupted without it).")
    var duration: Double?

    @Flag(help: "Replay captures as fast as possible instead of in real time.")
    var fast = false

    @Option(help: "Record the session as a btsnoop capture (datalink 1002).")
    var record: String?

    @Option(help: "Output: table, json (one object per line per device) or null (nothing; for timing).")
    var format: Format = .table

    @Flag(help: "Log what the controller supports and what is skipped, on stderr.")
    var verbose = false

    @Flag(help: "List every address as a device of its own: a device that changes its private address is not followed.")
    var perAddress = false

    @Option(help: ArgumentHelp("A file of Identity Resolving Keys: one device a line, its identity address and its key in hex.",
                               discussion: "Each line reads \"AA:BB:CC:DD:EE:FF/le-public 0123456789ABCDEF0123456789ABCDEF\" (or /le-random); lines starting with # are skipped. A private address a key resolves is listed under that identity. Keep the file private: the keys recognise the devices anywhere."))
    var keys: String?

    @Option(help: ArgumentHelp("A file of encrypted sensors' keys: one device a line, its address and its key in hex.",
                               discussion: "Each line reads \"A4:C1:38:00:11:22 231d39c1d7cc1ab1aee224cd096db932\" (BTHome and Xiaomi bindkeys); lines starting with # are skipped. Without a key, an encrypted sensor says so and shows no readings; a wrong key shows none either."))
    var sensorKeys: String?

    func run() async throws {
        let named: [NamedSource]
        do { named = try (source.isEmpty ? ["auto"] : source).map { text throws(ScanFailure) in try NamedSource(parsing: text) } } catch {
            Self.exit(saying: Self.explain(error))
        }
        let several = named.count > 1 || named.contains { if case .mqtt = $0.source { return true } else { return false } }
        let writer: BtsnoopWriter?
        if let record {
            do { writer = try BtsnoopWriter(path: record) } catch { Self.exit(saying: "cannot write \(record): \(error.localizedDescription)") }
        } else {
            writer = nil
        }
        let verbose = self.verbose
        var resolver: PrivateAddressResolver?
        if let keys {
            do { resolver = PrivateAddressResolver(hashing: AESAddressHashing(), bonds: try Self.readKeys(keys)) } catch {
                Self.exit(saying: error.message)
            }
        }
        var sensorKeyring: SensorKeyring?
        if let sensorKeys {
            guard let data = FileManager.default.contents(atPath: sensorKeys) else {
                Self.exit(saying: "cannot read the sensor keys file \(sensorKeys)")
            }
            do { sensorKeyring = try SensorKeyring(file: String(decoding: data, as: UTF8.self)) } catch {
                Self.exit(saying: "\(sensorKeys), line \(error.line): \(error.reason)")
            }
        }
        let log: @Sendable (String) -> Void = { if verbose { FileHandle.standardError.write(Data("favblue-scan: \($0)\n".utf8)) } }
        let scanners = named.map { ScannerFactory.make($0.source, demoCapture: DemoCapture.path(), fast: fast, record: writer,
                                                         sealer: SensorKeyring(), log: log) }
        let scanner = !several ? scanners[0] : MultiScanner(zip(named, scanners).map { MultiScanner.Part(name: $0.name ?? $0.source.description,
                                                                                                         scanner: $1) }, log: log)
        let (table, failure): (DeviceTable, ScanFailure?)
        if fast, let replay = scanner as? ReplayScanner {
            (table, failure) = await Self.fold(replay, duration: duration, resolver: resolver, perAddress: perAddress, sensorKeys: sensorKeyring)
        } else {
            (table, failure) = await Self.collect(scanner, duration: duration, resolver: resolver, perAddress: perAddress,
                                                  sensorKeys: sensorKeyring)
        }
        writer?.close()
        // On failure with nothing seen, stdout stays empty rather than holding a bare header.
        if failure == nil || !table.devices.isEmpty {
            print(table, format: format, sources: several, sensorKeys: sensorKeyring, log: log)
        }
        if let failure {
            Self.exit(saying: Self.explain(failure), code: 3)
        }
    }

    /// A fast replay read straight from the file on a thread of its own: nothing waits for
    /// pacing, so streaming each report would only add cost. The duration still stops it.
    static func fold(_ replay: ReplayScanner, duration: Double?, resolver: PrivateAddressResolver?,
                     perAddress: Bool, sensorKeys: SensorKeyring? = nil) async -> (DeviceTable, ScanFailure?) {
        let timer: Task<Void, Never>? = duration.map { seconds in
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if !Task.isCancelled { replay.stop() }
            }
        }
        defer { timer?.cancel() }
        let (table, end) = await withCheckedContinuation { done in
            Thread { done.resume(returning: replay.table(resolver: resolver, perAddress: perAddress, sensorKeys: sensorKeys)) }.start()
        }
        if case .failed(let reason) = end { return (table, reason) }
        return (table, nil)
    }

    /// Everything a scanner streams until its source ends, the duration is over, or it fails.
    static func collect(_ scanner: DeviceScanner, duration: Double?, resolver: PrivateAddressResolver?,
                        perAddress: Bool, sensorKeys: SensorKeyring? = nil) async -> (DeviceTable, ScanFailure?) {
        let observations = scanner.observations
        let states = scanner.states
        let failure = FailureBox()
        let stateTask = Task {
            for await state in states {
                if case .failed(let reason) = state {
                    failure.set(reason)
                    scanner.stop()
                }
            }
        }
        let timer: Task<Void, Never>? = duration.map { seconds in
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                scanner.stop()
                failure.finishStream()
            }
        }
        let collector = Task {
            var table = DeviceTable(resolver: resolver, perAddress: perAddress)
            table.sensorKeys = sensorKeys
            for await observation in observations { table.add(observation) }
            table.finish()
            failure.finishStream()
            return table
        }
        scanner.start()
        // A replay ends its stream; a live scan ends with the timer or a failure.
        while !failure.done { try? await Task.sleep(nanoseconds: 50_000_000) }
        collector.cancel()
        let table = await collector.value
        timer?.cancel()
        stateTask.cancel()
        return (table, failure.reason)
    }

    func print(_ table: DeviceTable, format: Format, sources: Bool, sensorKeys: SensorKeyring?, log: (String) -> Void) {
        for refusal in table.sensorRefusals { log(refusal) }
        if format == .null { return }
        let records = table.sorted.map { device in
            let record = JSONLine.record(device, sources: sources, sensorKeys: sensorKeys)
            if let skipped = record.sensorData?.skipped, !skipped.isEmpty {
                log("\(device.id.address): sensor data skipped: \(skipped.joined(separator: "; "))")
            }
            if record.sensorData?.wrongKey == true { log("\(device.id.address): the key does not open its readings") }
            return record
        }
        switch format {
        case .null: return
        case .json:
            for record in records { Swift.print(DeviceExport.jsonLine(record)) }
        case .table:
            for line in DeviceExport.table(records) { Swift.print(line) }
        }
    }

    /// The failure and its suggestion as two sentences: a detail may end without a full stop.
    static func explain(_ failure: ScanFailure) -> String {
        let message = failure.message
        let end = message.last.map { ".!?".contains($0) } ?? true
        return message + (end ? " " : ". ") + failure.suggestion
    }

    /// Says `message` on stderr and ends with `code`: 2 for what stops a command before it runs,
    /// 3 for a source that failed after it began. Every command ends this one way.
    static func exit(saying message: String, code: Int32 = 2) -> Never {
        FileHandle.standardError.write(Data("favblue-scan: \(message)\n".utf8))
        Foundation.exit(code)
    }
}

/// Failure and end flags shared between the state watcher, the timer and the main loop.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _reason: ScanFailure?
    private var _done = false
    var reason: ScanFailure? { lock.lock(); defer { lock.unlock() }; return _reason }
    var done: Bool { lock.lock(); defer { lock.unlock() }; return _done }
    func set(_ reason: ScanFailure) { lock.lock(); _reason = reason; _done = true; lock.unlock() }
    func finishStream() { lock.lock(); _done = true; lock.unlock() }
}

/// Why a keys file cannot be used, in words.
struct KeysFileError: Error {
    let message: String
}

extension FavBlueScan {
    /// Reads `path`: "IDENTITY KEY" a line, # for comments.
    static func readKeys(_ path: String) throws(KeysFileError) -> [ResolvingBond] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeysFileError(message: "cannot read the keys file \(path)")
        }
        var bonds: [ResolvingBond] = []
        for (number, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            let place = "\(path), line \(number + 1)"
            guard fields.count == 2 else { throw KeysFileError(message: "\(place): expected an identity address and a key") }
            let identity: DeviceID
            do {
                identity = fields[0].contains("/") ? try DeviceID(storageKey: fields[0]) : try DeviceID(parsing: fields[0], kind: .lePublic)
            } catch {
                throw KeysFileError(message: "\(place): \(DeviceText.terminal(fields[0])) is not an address like AA:BB:CC:DD:EE:FF/le-public")
            }
            do {
                bonds.append(ResolvingBond(identity: identity, irk: try IdentityResolvingKey(parsing: fields[1])))
            } catch {
                throw KeysFileError(message: "\(place): the key is not 32 hex digits")
            }
        }
        return bonds
    }
}
