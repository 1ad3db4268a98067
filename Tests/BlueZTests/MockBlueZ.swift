// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Foundation
import XCTest

/// python-dbusmock's bluez5 template on a private bus this harness starts: a stand-in for
/// bluetoothd that FavBlue's BlueZ route talks to exactly as to the real one.
final class MockBlueZ: @unchecked Sendable {
    static let python = "/usr/bin/python3"

    private let directory: URL
    private var daemon: Process?
    private var mock: Process?
    /// The private bus's address; `DBUS_SYSTEM_BUS_ADDRESS` for a FavBlue that uses the system bus.
    private(set) var address = ""
    /// The harness's own connection, to drive the mock.
    private(set) var control: DBusConnection!

    /// Starts the bus and the mock; skips the test when the Debian packages are missing.
    init() throws {
        guard let daemonPath = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("dbus-daemon is not installed (meson-helpers/apt-packages.txt lists it)")
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: Self.python)
        probe.arguments = ["-c", "import dbusmock"]
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            throw XCTSkip("python3-dbusmock is not installed (meson-helpers/apt-packages.txt lists it)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("favblue-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: daemonPath)
        daemon.arguments = ["--session", "--address=unix:path=\(directory.path)/bus.sock", "--nofork", "--print-address=1"]
        let pipe = Pipe()
        daemon.standardOutput = pipe
        try daemon.run()
        self.daemon = daemon
        address = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        control = try DBusConnection(address: address)
    }

    deinit { stop() }

    /// Starts bluetoothd's stand-in and waits until it owns org.bluez.
    /// `pythonPath` puts another python-dbusmock first (the newer one bootstrap installs, `newerDbusmock`).
    func startMock(template: String = "bluez5", name: String = "org.bluez", pythonPath: String? = nil) async throws {
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: Self.python)
        mock.arguments = ["-m", "dbusmock", "--session", "--template", template]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        if let pythonPath { environment["PYTHONPATH"] = pythonPath }
        mock.environment = environment
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        self.mock = mock
        for _ in 0..<200 {
            let reply = try await control.call(service: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                               interface: "org.freedesktop.DBus", method: "NameHasOwner",
                                               args: [.string(name)])
            if reply == .tuple([.bool(true)]) { return }
            // Polls the private bus for the mock's name, not a fixed wait.
            try await Task.sleep(for: .milliseconds(50))
        }
        throw XCTSkip("the \(template) mock did not claim \(name)")
    }

    /// python-dbusmock 0.37 from PyPI, which mocks BlueZ's advertising manager (Debian 12 ships 0.28.7,
    /// which does not); meson-helpers/bootstrap installs it. A missing one fails under CI and skips elsewhere.
    static func newerDbusmock() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let venv = ProcessInfo.processInfo.environment["FAVBLUE_VENV"] ?? root.appendingPathComponent(".venv-peers").path
        let path = venv + "/dbusmock"
        guard FileManager.default.fileExists(atPath: path + "/dbusmock/templates/bluez5.py") else {
            let message = "no newer python-dbusmock at \(path): run meson-helpers/bootstrap"
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw NSError(domain: "FavBlue", code: 1, userInfo: [NSLocalizedDescriptionKey: message]) }
            throw XCTSkip(message)
        }
        return path
    }

    /// Kills the mock, as a crashing bluetoothd would go (SIGKILL, for the reason in `stop`).
    func killMock() {
        guard let mock, mock.isRunning else { return }
        kill(mock.processIdentifier, SIGKILL)
        mock.waitUntilExit()
        self.mock = nil
    }

    /// Kills the bus itself, as a system bus that goes away would.
    func killBus() {
        control?.close()
        if let daemon, daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
    }

    func stop() {
        control?.close()
        killMock()
        // SIGKILL: a child started from a task's thread inherits its blocked signals, SIGTERM among them.
        if let daemon, daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Driving the mock

    @discardableResult
    func call(_ path: String, _ interface: String, _ method: String, _ args: [DBusValue] = []) async throws -> DBusValue {
        try await control.call(service: "org.bluez", path: path, interface: interface, method: method, args: args)
    }

    /// Adds adapter `name` ("hci0"), powered; returns its path.
    @discardableResult
    func addAdapter(_ name: String = "hci0") async throws -> String {
        try await call("/org/bluez", "org.bluez.Mock", "AddAdapter", [.string(name), .string("FavBlue test")])
        return "/org/bluez/\(name)"
    }

    /// Adds a device as if discovery had just found it (RSSI −79); returns its path.
    @discardableResult
    func addDevice(_ address: String, name: String, adapter: String = "hci0") async throws -> String {
        let reply = try await call("/org/bluez", "org.bluez.Mock", "AddDevice", [.string(adapter), .string(address), .string(name)])
        return reply.items?.first?.stringValue ?? ""
    }

    /// Sets a property through Properties.Set, which emits PropertiesChanged.
    func set(_ path: String, _ interface: String, _ name: String, _ value: DBusValue) async throws {
        try await call(path, "org.freedesktop.DBus.Properties", "Set", [.string(interface), .string(name), .variant(value)])
    }

    /// Reads a property.
    func get(_ path: String, _ interface: String, _ name: String) async throws -> DBusValue? {
        try await call(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)]).items?.first?.unwrapped
    }

    /// Adds an object with `properties` and `methods` (name, in, out, Python code), and announces it with InterfacesAdded.
    func addObject(_ path: String, _ interface: String, _ properties: [String: DBusValue],
                   methods: [(String, String, String, String)] = []) async throws {
        try await call("/", "org.freedesktop.DBus.Mock", "AddObject", [
            .string(path), .string(interface), .vardict(properties),
            .array(elementType: "(ssss)", methods.map { .tuple([.string($0.0), .string($0.1), .string($0.2), .string($0.3)]) }),
        ])
        let announced = DBusValue.dictionary(keyType: "s", valueType: "a{sv}", [.init(.string(interface), .vardict(properties))])
        try await call("/", "org.freedesktop.DBus.Mock", "EmitSignal", [
            .string("org.freedesktop.DBus.ObjectManager"), .string("InterfacesAdded"), .string("oa{sa{sv}}"),
            .array(elementType: "v", [.variant(.objectPath(path)), .variant(announced)]),
        ])
    }

    /// Adds `interface` with `properties` to the object at `path`, and announces it with InterfacesAdded.
    func addInterface(_ path: String, _ interface: String, _ properties: [String: DBusValue]) async throws {
        try await call(path, "org.freedesktop.DBus.Mock", "AddProperties", [.string(interface), .vardict(properties)])
        let announced = DBusValue.dictionary(keyType: "s", valueType: "a{sv}", [.init(.string(interface), .vardict(properties))])
        try await call("/", "org.freedesktop.DBus.Mock", "EmitSignal", [
            .string("org.freedesktop.DBus.ObjectManager"), .string("InterfacesAdded"), .string("oa{sa{sv}}"),
            .array(elementType: "v", [.variant(.objectPath(path)), .variant(announced)]),
        ])
    }

    /// Replaces (or adds) a method of the object at `path`.
    func addMethod(_ path: String, _ interface: String, _ name: String, in input: String = "", out output: String = "",
                   code: String) async throws {
        try await call(path, "org.freedesktop.DBus.Mock", "AddMethod",
                       [.string(interface), .string(name), .string(input), .string(output), .string(code)])
    }

    /// Loads Tests/Fixtures/dbusmock/bluez_pairing.py on top of bluez5: Pair asks the caller's agent.
    func loadPairing() async throws {
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dbusmock/bluez_pairing.py").path
        try await call("/org/bluez", "org.freedesktop.DBus.Mock", "AddTemplate",
                       [.string(template), .dictionary(keyType: "s", valueType: "v", [])])
    }

    /// Makes Pair on `path` run `script` ("confirm", "passkey", "display", "cancel", "silent", "reject")
    /// with `code`, revealing `identity` ("AA:…/public") on success when given.
    func scriptPairing(_ path: String, _ script: String, code: UInt32 = 0, identity: String = "") async throws {
        try await call("/org/bluez", "org.bluez.Mock", "ScriptPairing",
                       [.string(path), .string(script), .string(String(code)), .string(identity)])
    }

    /// Adds a property without announcing it.
    func addProperty(_ path: String, _ interface: String, _ name: String, _ value: DBusValue) async throws {
        try await call(path, "org.freedesktop.DBus.Mock", "AddProperty", [.string(interface), .string(name), .variant(value)])
    }

    /// The names of the methods called on `path`, oldest first.
    func calls(_ path: String) async throws -> [String] {
        let reply = try await call(path, "org.freedesktop.DBus.Mock", "GetCalls")
        return reply.items?.first?.items?.compactMap { $0.items?[1].stringValue } ?? []
    }

    /// The arguments of every call of `method` on `path`, oldest first.
    func arguments(_ path: String, _ method: String) async throws -> [[DBusValue]] {
        let reply = try await call(path, "org.freedesktop.DBus.Mock", "GetMethodCalls", [.string(method)])
        return reply.items?.first?.items?.compactMap { $0.items?[1].items?.map(\.unwrapped) } ?? []
    }

    /// Waits until `condition` holds, up to `seconds`.
    static func eventually(_ seconds: Double = 10, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                           _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return }
            // Polls the mock over D-Bus, not a fixed wait.
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTFail("timed out waiting for \(what)", file: file, line: line)
    }
}
