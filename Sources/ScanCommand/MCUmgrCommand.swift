// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import ArgumentParser
import Bluetooth
import DeviceLinks
import Domain
import Foundation
import SecurityToolbox

/// `favblue-scan mcumgr TARGET …`: the Device Manager on the command line. Plain words on
/// standard output, or one JSON document with --json; progress on standard error. Exit codes:
/// 0 done, 1 the device refused, 2 the command or a file was wrong, 3 the device could not be
/// reached or did not answer.
struct MCUmgrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcumgr",
        abstract: "Manage a Zephyr or MCUboot device over MCUmgr (SMP): images, restart, statistics, files and its shell.",
        discussion: """
            TARGET is a device's address (AA:BB:CC:DD:EE:FF, or …/le-random) reached over --source, or
            udp:HOST[:PORT] (port 1337 by default), or serial:DEV[@BAUD] (115200 by default). Commands:
              image list | image upload FILE [--mode test-and-confirm|confirm-only|test-only] | image test HASH |
              image confirm [HASH] | image erase | echo TEXT | reset | params | stat [GROUP] |
              fs download REMOTE LOCAL | fs upload LOCAL REMOTE | shell CMD…
            Exit codes: 0 done, 1 the device refused, 2 the command or a file was wrong, 3 the device could not be reached or did not answer.
            """)

    @Argument(help: ArgumentHelp("udp:HOST[:PORT], serial:DEV[@BAUD], or a device's Bluetooth address with --source", valueName: "target"))
    var target: String

    @Option(help: "Over Bluetooth: bluez, bluez:hciN, h4-unix:PATH, h4-tcp:HOST:PORT or h4-serial:DEV[@BAUD] (auto: BlueZ).")
    var source = "auto"

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command and its arguments.", valueName: "command"))
    var words: [String] = []

    @Flag(help: "Print one JSON document instead of words.")
    var json = false

    @Option(help: "Seconds to wait for each answer.")
    var timeout: Double = 5

    func run() async throws {
        // The passthrough keeps flags that follow the command: take the command's own here.
        var words = self.words
        var json = self.json
        var timeout = self.timeout
        var source = self.source
        if let i = words.firstIndex(of: "--source"), i + 1 < words.count {
            source = words[i + 1]
            words.removeSubrange(i...(i + 1))
        }
        if let i = words.firstIndex(of: "--json") { words.remove(at: i); json = true }
        if let i = words.firstIndex(of: "--timeout") {
            guard i + 1 < words.count, let seconds = Double(words[i + 1]), seconds > 0 else { MCUmgrRun.usage("--timeout takes seconds") }
            timeout = seconds
            words.removeSubrange(i...(i + 1))
        }
        guard let verb = words.first else { MCUmgrRun.usage("name a command, for example: favblue-scan mcumgr \(target) image list") }
        let transport: SMPTransport
        var connector: DeviceConnector?
        let pump = EventPump()
        if target.hasPrefix("udp:") || target.hasPrefix("serial:") {
            transport = MCUmgrRun.open(target)
        } else {
            (transport, connector) = await MCUmgrRun.openBluetooth(target, source: source, within: max(timeout, 10), pump: pump)
        }
        let client = SMPClient(transport: transport, timeout: .milliseconds(Int(timeout * 1000)))
        var run = MCUmgrRun(client: client, json: json)
        let target = self.target, wait = timeout
        if let connector, let device = MCUmgrRun.device(target) {
            run.reconnect = { () async throws(SMPProblem) -> SMPClient in
                SMPClient(transport: try await MCUmgrRun.reconnect(connector, to: device, within: max(wait, 10), pump: pump),
                          timeout: .milliseconds(Int(wait * 1000)))
            }
        } else {
            run.reconnect = { () throws(SMPProblem) -> SMPClient in
                SMPClient(transport: try MCUmgrRun.reopen(target), timeout: .milliseconds(Int(wait * 1000)))
            }
        }
        await run.perform(verb, Array(words.dropFirst()))
        await client.close()
        if let connector {
            connector.disconnect()
            // The pump reads the events: the end is watched in the state (the link must be down before the host goes).
            let deadline = Date().addingTimeInterval(2)
            while Date() < deadline {
                if case .idle = connector.state { break }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}

/// One run of the command: the request, then what it printed and how it ended.
struct MCUmgrRun {
    let client: SMPClient
    let json: Bool
    /// A fresh client to the same device, once it is back after a restart.
    var reconnect: (@Sendable () async throws(SMPProblem) -> SMPClient)?

    static func usage(_ message: String) -> Never { FavBlueScan.exit(saying: message, code: 2) }

    /// The link a target names, made again after the device restarts; throws while it cannot be made.
    static func reopen(_ target: String) throws(SMPProblem) -> SMPTransport {
        let parsed: NetworkTarget
        do { parsed = try NetworkTarget(parsing: String(target.drop { $0 != ":" }.dropFirst())) } catch { throw .disconnected(error.message) }
        if let baud = parsed.baud { return try SerialSMPTransport(path: parsed.host, baud: baud) }
        return try UDPSMPTransport(host: parsed.host, port: parsed.port)
    }

    /// Connects again to `device` through `connector` (after its restart) and opens its SMP
    /// characteristic; throws while the device is not back.
    static func reconnect(_ connector: DeviceConnector, to device: DeviceID, within seconds: Double,
                          pump: EventPump) async throws(SMPProblem) -> SMPTransport {
        if case .connected(let current, _) = connector.state, current == device {
        } else {
            // The pump reads the events; the state is watched here, a tenth of a second at a time.
            connector.connect(to: device)
            let deadline = Date().addingTimeInterval(seconds)
            var tried = false
            waiting: while true {
                switch connector.state {
                case .connecting: tried = true
                case .connected(let current, _) where current == device: break waiting
                case .failed(let why) where tried: throw .disconnected(why.message)
                default: break
                }
                guard Date() < deadline else {
                    connector.cancel()
                    throw .disconnected("the device is not back yet")
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        do {
            let services = try await connector.discoverServices()
            guard let transport = try await GATTSMPTransport.open(connector, device: device, services: services, listening: false) else {
                throw SMPProblem.unexpected("\(device.address) offers no Device Manager (MCUmgr's SMP service)")
            }
            pump.follow(transport)
            return transport
        } catch let problem as SMPProblem {
            throw problem
        } catch {
            throw .disconnected((error as? GATTError)?.message ?? "\(error)")
        }
    }

    /// The link a target names.
    static func open(_ target: String) -> SMPTransport {
        if target.hasPrefix("serial:") {
            let parsed: NetworkTarget
            do { parsed = try NetworkTarget(parsing: String(target.dropFirst(7))) } catch {
                usage("“\(DeviceText.terminal(target))”: \(error.message)")
            }
            guard let baud = parsed.baud else { usage("“\(DeviceText.terminal(target))” is no serial device: use serial:/dev/ttyACM0[@115200]") }
            do { return try SerialSMPTransport(path: parsed.host, baud: baud) } catch { FavBlueScan.exit(saying: error.message, code: 3) }
        }
        guard target.hasPrefix("udp:") else {
            usage("“\(DeviceText.terminal(target))” is no target: use udp:HOST[:PORT] or serial:DEV[@BAUD]")
        }
        let parsed: NetworkTarget
        do { parsed = try NetworkTarget(parsing: String(target.dropFirst(4))) } catch {
            usage("“\(DeviceText.terminal(target))”: \(error.message)")
        }
        let (rest, port) = (parsed.host, parsed.port)
        do { return try UDPSMPTransport(host: rest, port: port) } catch { FavBlueScan.exit(saying: error.message, code: 3) }
    }

    /// The device a Bluetooth target names.
    static func device(_ address: String) -> DeviceID? {
        address.contains("/") ? try? DeviceID(storageKey: address) : try? DeviceID(parsing: address, kind: .lePublic)
    }

    /// Connects to the device at `address` over `source` and opens its SMP characteristic.
    static func openBluetooth(_ address: String, source: String, within seconds: Double, pump: EventPump) async -> (SMPTransport, DeviceConnector) {
        let parsed: ScanSource
        do { parsed = try ScanSource(parsing: source) } catch { FavBlueScan.exit(saying: FavBlueScan.explain(error)) }
        let device: DeviceID
        do {
            device = address.contains("/") ? try DeviceID(storageKey: address) : try DeviceID(parsing: address, kind: .lePublic)
        } catch {
            usage("“\(DeviceText.terminal(address))” is no target: use a device's address (AA:BB:CC:DD:EE:FF) or udp:HOST[:PORT]")
        }
        let link = ScannerFactory.link(for: parsed, crypto: ToolboxPairingCrypto(), log: { _ in })
        let connector = ConnectorFactory.make(parsed, link: link, bus: ScannerFactory.bus(for: parsed), addresses: HeardAddresses(), log: { _ in })
        if let reason = connector.unavailableReason { FavBlueScan.exit(saying: reason, code: 3) }
        let events = connector.events
        connector.connect(to: device)
        if case .failure(let why) = await GATTCommand.connected(events, within: seconds) {
            FavBlueScan.exit(saying: "could not connect to \(device.address): \(why)", code: 3)
        }
        do {
            let services = try await connector.discoverServices()
            guard let transport = try await GATTSMPTransport.open(connector, device: device, services: services, listening: false) else {
                FavBlueScan.exit(saying: "\(device.address) offers no Device Manager (MCUmgr's SMP service)", code: 1)
            }
            pump.start(connector, device: device, transport: transport)
            return (transport, connector)
        } catch let error as GATTError {
            FavBlueScan.exit(saying: "could not list the services: \(error.message)", code: 3)
        } catch {
            fail(error as? SMPProblem ?? .unexpected("\(error)"))
        }
    }

    /// Ends with the device's refusal (1) or the link's failure (3), in words.
    static func fail(_ problem: SMPProblem, refused: Bool = false) -> Never {
        if case .device = problem { FavBlueScan.exit(saying: problem.message, code: 1) }
        FavBlueScan.exit(saying: problem.message, code: refused ? 1 : 3)
    }

    func say(_ text: String, _ document: JSONValue) {
        let out = json ? JSONDocument.write(JSONNode(document)) : text
        FileHandle.standardOutput.write(Data((out.hasSuffix("\n") ? out : out + "\n").utf8))
    }

    func perform(_ verb: String, _ arguments: [String]) async {
        do {
            switch verb {
            case "echo":
                let (back, time) = try await client.echo(arguments.joined(separator: " "))
                let ms = Double(time.components.attoseconds) / 1e15 + Double(time.components.seconds) * 1000
                say("\(DeviceText.terminal(back))\nround trip: \(String(format: "%.1f", ms)) ms",
                    .object([JSONMember("echo", .init(.string(back))), JSONMember("roundTripMs", .init(.number(ms)))]))
            case "reset":
                try await client.reset()
                say("The device restarts.", .object([JSONMember("reset", .init(.bool(true)))]))
            case "params":
                let p = try await client.parameters()
                say("buffer size: \(p.bufferSize) bytes\nbuffer count: \(p.bufferCount)",
                    .object([JSONMember("bufferSize", .init(.number(Double(p.bufferSize)))),
                             JSONMember("bufferCount", .init(.number(Double(p.bufferCount))))]))
            case "stat":
                try await statistics(arguments.first)
            case "shell":
                guard !arguments.isEmpty else { Self.usage("shell needs a command, for example: shell kernel uptime") }
                let (output, code) = try await client.shell(arguments)
                // The device's lines end in CR LF; each is shown with its control characters visible.
                let lines = output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
                say(lines.map { DeviceText.terminal(String($0)) }.joined(separator: "\n"), .object([JSONMember("output", .init(.string(output))),
                                                          JSONMember("returnCode", .init(.number(Double(code))))]))
                if code != 0 { Foundation.exit(1) }
            case "fs":
                try await files(arguments)
            case "image":
                try await image(arguments)
            default:
                Self.usage("“\(DeviceText.terminal(verb))” is no mcumgr command (image, echo, reset, params, stat, fs, shell)")
            }
        } catch {
            Self.fail(error)
        }
    }

    private func statistics(_ group: String?) async throws(SMPProblem) {
        guard let group else {
            let groups = try await client.statisticsGroups()
            return say(groups.map(DeviceText.terminal).joined(separator: "\n"), .array(groups.map { .init(.string($0)) }))
        }
        let fields = try await client.statistics(group)
        say(fields.map { "\(DeviceText.terminal($0.name)): \($0.value)" }.joined(separator: "\n"),
            .object(fields.map { JSONMember($0.name, .init(.number(Double($0.value)))) }))
    }

    private func files(_ arguments: [String]) async throws(SMPProblem) {
        guard arguments.count == 3, ["download", "upload"].contains(arguments[0]) else {
            Self.usage("fs takes: download REMOTE LOCAL, or upload LOCAL REMOTE")
        }
        let progress = Self.progress
        if arguments[0] == "download" {
            let data = try await client.downloadFile(arguments[1], progress: progress)
            guard FileManager.default.createFile(atPath: arguments[2], contents: Data(data)) else {
                Self.usage("“\(DeviceText.terminal(arguments[2]))” could not be written")
            }
            say("\(data.count) bytes from \(DeviceText.terminal(arguments[1]))", .object([JSONMember("bytes", .init(.number(Double(data.count))))]))
        } else {
            guard let data = FileManager.default.contents(atPath: arguments[1]) else {
                Self.usage("“\(DeviceText.terminal(arguments[1]))” could not be read")
            }
            let parameters = try await client.parameters()
            try await client.uploadFile(Array(data), to: arguments[2], parameters: parameters, progress: progress)
            say("\(data.count) bytes to \(DeviceText.terminal(arguments[2]))", .object([JSONMember("bytes", .init(.number(Double(data.count))))]))
        }
    }

    private func image(_ arguments: [String]) async throws(SMPProblem) {
        switch arguments.first {
        case "list":
            let slots = try await client.images()
            say(slots.map(ImageWords.line).joined(separator: "\n"), .array(slots.map { .init(ImageWords.json($0)) }))
        case "erase":
            try await client.eraseImage()
            say("The spare slot is erased.", .object([JSONMember("erased", .init(.bool(true)))]))
        case "test", "confirm":
            let confirm = arguments[0] == "confirm"
            var hash: [UInt8]?
            if arguments.count > 1 {
                guard let h = Hex.bytes(arguments[1]), !h.isEmpty else { Self.usage("“\(DeviceText.terminal(arguments[1]))” is no hash in hex") }
                hash = h
            } else if !confirm {
                Self.usage("image test needs the hash of the image to test")
            }
            let slots = try await client.setImage(hash, confirm: confirm)
            say(slots.map(ImageWords.line).joined(separator: "\n"), .array(slots.map { .init(ImageWords.json($0)) }))
        case "upload":
            try await upload(Array(arguments.dropFirst()))
        default:
            Self.usage("image takes: list, upload FILE, test HASH, confirm [HASH] or erase")
        }
    }
}
