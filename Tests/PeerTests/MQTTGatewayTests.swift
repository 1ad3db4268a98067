// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
@testable import HomeServices
import TestSupport
import XCTest

/// A real broker (Debian's mosquitto, on a free port) and fake gateways publishing what they
/// hear in the BTtoMQTT format, as OpenMQTTGateway and Theengs Gateway do.
final class Broker {
    let port = Peers.freePort()
    let directory = NSTemporaryDirectory() + "favblue-mqtt-\(UUID().uuidString.prefix(8))"
    private var process: PeerProcess?
    private let lines: [String]

    /// A broker; `user` and `password` make it refuse anyone else; `tls` serves TLS with a CA
    /// and certificate made here.
    init(user: String? = nil, password: String? = nil, tls: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var lines = ["listener \(port) 127.0.0.1"]
        if let user, let password {
            let file = directory + "/passwords"
            FileManager.default.createFile(atPath: file, contents: nil)
            let made = try runTool("/usr/bin/mosquitto_passwd", ["-b", file, user, password])
            XCTAssertEqual(made.status, 0, made.err)
            lines += ["allow_anonymous false", "password_file \(file)"]
        } else {
            lines.append("allow_anonymous true")
        }
        if tls {
            try Self.makeCertificates(in: directory)
            lines += ["cafile \(directory)/ca.pem", "certfile \(directory)/server.pem", "keyfile \(directory)/server.key"]
        }
        self.lines = lines
        try start()
    }

    /// A CA and a certificate for "localhost" it signed.
    private static func makeCertificates(in d: String) throws {
        for args in [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=FavBlue test CA", "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "\(d)/server.key", "-out", "\(d)/server.csr"],
        ] {
            let run = try runTool("/usr/bin/openssl", args)
            XCTAssertEqual(run.status, 0, run.err)
        }
        try "subjectAltName=DNS:localhost\n".write(toFile: "\(d)/san.ext", atomically: true, encoding: .utf8)
        let sign = try runTool("/usr/bin/openssl", ["x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key",
                                                    "-CAcreateserial", "-days", "2", "-extfile", "\(d)/san.ext", "-out", "\(d)/server.pem"])
        XCTAssertEqual(sign.status, 0, sign.err)
        // The broker drops root for its own user, who must read the throwaway key.
        chmod("\(d)/server.key", 0o644)
    }

    func start() throws {
        let config = directory + "/mosquitto.conf"
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        try Peers.require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto"), "no mosquitto: run meson-helpers/bootstrap")
        process = try PeerProcess("/usr/sbin/mosquitto", ["-c", config], ready: "running")
    }

    /// Kills the broker at once (it takes seconds to say goodbye to its clients otherwise).
    func stop() {
        process?.kill9()
        process = nil
    }

    /// Publishes `message` on `topic`, as a gateway would.
    func publish(_ topic: String, _ message: String, user: String? = nil, password: String? = nil) throws {
        let file = directory + "/message-\(UUID().uuidString.prefix(8))"
        try message.write(toFile: file, atomically: true, encoding: .utf8)
        try publish(topic, file: file, user: user, password: password)
    }

    func publish(_ topic: String, file: String, user: String? = nil, password: String? = nil) throws {
        var args = ["-p", String(port), "-h", "127.0.0.1", "-t", topic, "-f", file]
        if let user, let password { args += ["-u", user, "-P", password] }
        let run = try runTool("/usr/bin/mosquitto_pub", args)
        XCTAssertEqual(run.status, 0, run.err)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Log lines, kept from any thread.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

final class MQTTGatewayTests: XCTestCase {
    /// What `feed` reports, folded into a table, once `done` holds of it; nil after the bound.
    private func folded(_ feed: Feed<Observation>, until done: @escaping @Sendable (DeviceTable) -> Bool) async -> DeviceTable? {
        await withTaskGroup(of: DeviceTable?.self) { group in
            group.addTask {
                var table = DeviceTable()
                for await o in feed {
                    table.add(o)
                    if done(table) { return table }
                }
                return nil
            }
            // A bound, not a wait: the reports end it long before.
            group.addTask {
                try? await Task.sleep(nanoseconds: 15_000_000_000)
                return nil
            }
            let table = await group.next() ?? nil
            group.cancelAll()
            return table
        }
    }

    /// Starts `scanner` and returns once it is `state`: each state is awaited as it comes.
    @discardableResult
    private func reach(_ scanner: DeviceScanner, _ state: ScannerState, timeout: Double = 15) async -> ScannerState? {
        let reached = await first(scanner.states, timeout: timeout) { $0 == state }
        XCTAssertEqual(reached, state)
        return reached
    }

    private static let keys = #"{"id":"C0:DE:AD:BE:EF:01","mac_type":1,"adv_type":0,"name":"Keys","rssi":-61,"txpower":4}"#

    private func scanner(_ broker: Broker, log: @escaping @Sendable (String) -> Void = { _ in }) -> MQTTScanner {
        MQTTScanner(address: MQTTAddress(tls: false, user: nil, host: "127.0.0.1", port: broker.port, prefix: "home"), log: log)
    }

    func testTwoRoomsHearingOneDeviceMakeOneDeviceWithBothSources() async throws {
        let broker = try Broker()
        let scanner = scanner(broker)
        let reports = scanner.observations
        scanner.start()
        defer { scanner.stop() }
        await reach(scanner, .scanning)
        try broker.publish("home/Kitchen/BTtoMQTT/C0DEADBEEF01", Self.keys)
        try broker.publish("home/Office/BTtoMQTT/C0DEADBEEF01", Self.keys.replacingOccurrences(of: "-61", with: "-78"))
        let table = await folded(reports) { $0.devices.values.first?.sources.count == 2 }
        let devices = try XCTUnwrap(table?.devices)
        XCTAssertEqual(devices.count, 1, "one device, heard in two rooms")
        let keys = try XCTUnwrap(devices.values.first)
        XCTAssertEqual(keys.id, try DeviceID(parsing: "C0:DE:AD:BE:EF:01", kind: .leRandom))
        XCTAssertEqual(keys.name, "Keys")
        XCTAssertEqual(keys.txPower, 4)
        XCTAssertEqual(keys.sources.map(\.name), ["Kitchen", "Office"])
        XCTAssertEqual(keys.sources.map(\.rssi), [-61, -78])
        XCTAssertEqual(Set(scanner.sourceStatuses.map(\.name)), ["127.0.0.1", "Kitchen", "Office"])
    }

    func testABrokerRestartIsSaidAndNothingPublishedAfterItComesBackIsLost() async throws {
        let broker = try Broker()
        let scanner = scanner(broker)
        let reports = scanner.observations
        scanner.start()
        defer { scanner.stop() }
        await reach(scanner, .scanning)
        let states = scanner.states
        broker.stop()
        let lost = await first(states) { $0 == .starting }
        XCTAssertEqual(lost, .starting, "the loss is said")
        try broker.start()
        await reach(scanner, .scanning, timeout: 40)
        for n in 1...20 {
            let id = String(format: "C0:00:00:00:00:%02X", n)
            try broker.publish("home/Hall/BTtoMQTT/x", #"{"id":"\#(id)","mac_type":1,"rssi":-70}"#)
        }
        let table = await folded(reports) { $0.devices.count == 20 }
        XCTAssertEqual(table?.devices.count, 20)
    }

    func testABrokerNotYetUpWhenTheScannerStartsIsReachedOnceItIs() async throws {
        let broker = try Broker()
        broker.stop()
        let (refusals, refused) = AsyncStream.makeStream(of: String.self)
        let scanner = scanner(broker) { refused.yield($0) }
        scanner.start()
        defer { scanner.stop() }
        // The broker comes up once the first connection was refused.
        for await line in refusals where line.contains("trying again") { break }
        try broker.start()
        await reach(scanner, .scanning, timeout: 40)
    }

    func testMalformedMessagesAreCountedAndSkippedAndTheNextIsRead() async throws {
        let broker = try Broker()
        let lines = Lines()
        let scanner = scanner(broker, log: { lines.add($0) })
        let reports = scanner.observations
        scanner.start()
        defer { scanner.stop() }
        await reach(scanner, .scanning)
        try broker.publish("home/Hall/BTtoMQTT/x", "{not json")
        try broker.publish("home/Hall/BTtoMQTT/x", #"{"rssi":-40,"name":"no id"}"#)
        let big = broker.directory + "/big"
        FileManager.default.createFile(atPath: big, contents: Data(repeating: 0x20, count: 10 * 1024 * 1024))
        try broker.publish("home/Hall/BTtoMQTT/x", file: big)
        try broker.publish("home/Hall/BTtoMQTT/x", #"{"id":"C0:00:00:00:00:99","mac_type":1,"name":"\u202Eevil\n=1+1","rssi":-50}"#)
        // The broker passes messages on in order: the good one came after the three bad ones.
        let table = await folded(reports) { $0.devices.count == 1 }
        XCTAssertEqual(scanner.sourceStatuses.first?.skipped, 3)
        XCTAssertTrue(scanner.sourceStatuses.first?.words.hasSuffix("3 messages skipped") ?? false)
        XCTAssertEqual(table?.devices.values.first?.name, "\u{202E}evil\n=1+1", "kept as sent: shown later by the device-text rule")
        let logged = lines.all
        XCTAssertTrue(logged.contains { $0.contains("not a JSON object") }, "\(logged)")
        XCTAssertTrue(logged.contains { $0.contains("more than any advertisement") }, "\(logged)")
    }

    func testAWrongPasswordIsAClearFailureAndTheRightOneWorks() async throws {
        let broker = try Broker(user: "favblue", password: "s3cret-Pa55")
        let address = MQTTAddress(tls: false, user: "favblue", host: "127.0.0.1", port: broker.port, prefix: "home")
        let wrong = MQTTScanner(address: address, password: "guess", log: { _ in })
        let states = wrong.states
        wrong.start()
        let refused = await first(states) { if case .failed = $0 { return true } else { return false } }
        guard case .failed(let failure)? = refused else { return XCTFail("refused: \(String(describing: refused))") }
        XCTAssertTrue(failure.message.contains("refused the user name or password"), failure.message)
        XCTAssertFalse(failure.message.contains("guess"), "a password is never said")
        wrong.stop()
        let right = MQTTScanner(address: address, password: "s3cret-Pa55", log: { _ in })
        let reports = right.observations
        right.start()
        defer { right.stop() }
        await reach(right, .scanning)
        try broker.publish("home/Hall/BTtoMQTT/x", Self.keys, user: "favblue", password: "s3cret-Pa55")
        let table = await folded(reports) { $0.devices.count == 1 }
        XCTAssertEqual(table?.devices.count, 1)
    }

    func testTLSWithTheCAFileGiven() async throws {
        let broker = try Broker(tls: true)
        let address = try MQTTAddress(parsing: "mqtts://localhost:\(broker.port)/home?ca=\(broker.directory)/ca.pem")
        let scanner = MQTTScanner(address: address, log: { _ in })
        let reports = scanner.observations
        scanner.start()
        defer { scanner.stop() }
        await reach(scanner, .scanning)
        let run = try runTool("/usr/bin/mosquitto_pub", ["-p", String(broker.port), "-h", "localhost", "--cafile", "\(broker.directory)/ca.pem",
                                                         "-t", "home/Attic/BTtoMQTT/x", "-m", Self.keys])
        XCTAssertEqual(run.status, 0, run.err)
        let table = await folded(reports) { $0.devices.values.first?.sources.first?.name == "Attic" }
        XCTAssertEqual(table?.devices.values.first?.sources.first?.name, "Attic")
    }

    /// libmosquitto is loaded when a broker is first used: without it, every other source
    /// still works, and a broker's source says what is missing and how to get it.
    func testWithoutTheMQTTLibraryOtherSourcesWorkAndABrokerSaysWhatToInstall() throws {
        let tool = scanToolPath
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "build favblue-scan first (swift build)")
        // The loader finds this unreadable copy before the system's.
        let directory = NSTemporaryDirectory() + "favblue-nomqtt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/libmosquitto.so.1", contents: Data())
        let broken = ["LD_LIBRARY_PATH": directory, "LANG": "C.UTF-8", "LANGUAGE": ""]

        let demo = try runTool(tool, ["--source", "demo", "--duration", "1", "--fast", "--format", "json"], environment: broken)
        XCTAssertEqual(demo.status, 0, demo.err)
        XCTAssertTrue(demo.out.contains("\"address\""), demo.out)

        let broker = try runTool(tool, ["--source", "mqtt://127.0.0.1:1/home", "--duration", "1"], environment: broken)
        XCTAssertNotEqual(broker.status, 0)
        XCTAssertTrue(broker.err.contains("the MQTT library could not be loaded"), broker.err)
        XCTAssertTrue(broker.err.contains("libmosquitto.so.1"), "the loader's own words: \(broker.err)")
        XCTAssertTrue(broker.err.contains("install libmosquitto1"), broker.err)
    }
}
