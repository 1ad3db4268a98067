// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import Persistence
import ViewModels
import XCTest

/// Scanning through BlueZ, against python-dbusmock's bluez5 template on a private bus: what the
/// Scanner's rows, the detail page's keywords and plot, and the scan's state show.
final class BlueZScannerTests: XCTestCase {
    private var mock: MockBlueZ!
    private var directory: URL!
    private let phone = "C0:98:E5:49:00:01"
    private let tag = "C0:98:E5:49:00:02"
    private var phoneID: DeviceID { try! DeviceID(parsing: phone, kind: .lePublic) }

    override func setUp() async throws {
        mock = try MockBlueZ()
        try await mock.startMock()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("favblue-bluez-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        mock?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The app's pieces over a real SQLite store: live devices, favorites and the Scanner's model.
    @MainActor
    private final class App {
        let bus: BlueZBus
        let live: LiveDevices
        let favorites: Favorites
        let scanner: ScannerViewModel
        let store: Store

        init(address: String, directory: URL, mode: ScanMode = .continuous) {
            let bus = BlueZBus(address: address)
            self.bus = bus
            store = StoreFactory.open(.sqlite, directory: directory.path)
            live = LiveDevices(makeScanner: { mode in BlueZScanner(bus: bus, mode: mode) }, sightings: store.sightings,
                               refreshesPerSecond: 20)
            favorites = Favorites(useCases: FavoritesUseCases(repository: store.favorites), live: live,
                                  sightings: store.sightings)
            live.keepsSightings = { [weak favorites] in favorites?.isFavorite($0) ?? false }
            scanner = ScannerViewModel(live: live, policy: ScanPolicy(live: live), favorites: favorites)
            scanner.hideUnnamed = false
        }

        func row(_ title: String) -> ScannerViewModel.Row? { scanner.rows.first { $0.title == title } }
        var titles: [String] { scanner.rows.map(\.title).sorted() }
    }

    private func eventually(_ what: String, _ seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line,
                            _ condition: @MainActor () async throws -> Bool) async throws {
        try await MockBlueZ.eventually(seconds, what, file: file, line: line) { try await condition() }
    }

    func testAFavoritesBatteryLevelComesFromBlueZsBattery1AndFollowsIt() async throws {
        try await mock.addAdapter()
        let path = try await mock.addDevice(phone, name: "Pixel 8")
        let app = await App(address: mock.address, directory: directory)
        let model = await FavoritesViewModel(favorites: app.favorites)
        await app.scanner.start()
        try await eventually("Pixel 8 listed") { app.row("Pixel 8") != nil }
        let listed = await app.row("Pixel 8")?.id
        let id = try XCTUnwrap(listed)
        _ = await app.favorites.add(id, name: "Pixel 8", nickname: "Phone")
        try await eventually("the favorite listed") { model.rows.first?.title == "Phone" }
        let before = await model.rows.first?.battery
        XCTAssertNil(before, "no level before the system has one")
        // Connected, bluetoothd's battery plugin reads the Battery service and adds Battery1.
        try await mock.addInterface(path, "org.bluez.Battery1", ["Percentage": .byte(80)])
        try await eventually("Battery 80 %") { model.rows.first?.battery == "Battery 80 %" }
        let icon = await model.rows.first?.batteryIcon
        XCTAssertEqual(icon, "battery-level-80-symbolic")
        try await mock.set(path, "org.bluez.Battery1", "Percentage", .byte(7))
        try await eventually("Battery 7 %") { model.rows.first?.battery == "Battery 7 %" }
        let low = await model.rows.first?.batteryIcon
        XCTAssertEqual(low, "battery-level-0-symbolic")
        await app.scanner.stop()
    }

    func testDevicesBlueZFindsAppearWithTheirNameAddressAndSignal() async throws {
        try await mock.addAdapter()
        try await mock.addDevice(phone, name: "Pixel 8")
        // In BlueZ's cache but not heard in this discovery: no RSSI, so not live.
        try await mock.addObject("/org/bluez/hci0/dev_C0_98_E5_49_00_09", "org.bluez.Device1", [
            "Address": .string("C0:98:E5:49:00:09"), "AddressType": .string("random"), "Name": .string("Old Watch"),
            "Adapter": .objectPath("/org/bluez/hci0"), "Paired": .bool(true), "Connected": .bool(false),
        ])
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("Pixel 8 listed") { app.row("Pixel 8") != nil }
        try await mock.addDevice(tag, name: "Tile")
        try await eventually("Tile listed once AddDevice announced it") { app.row("Tile") != nil }
        let pixel = await app.row("Pixel 8")
        XCTAssertEqual(pixel?.rssi, -79)
        XCTAssertEqual(pixel?.subtitle.hasPrefix(phone), true)
        let titles = await app.titles
        XCTAssertEqual(titles, ["Pixel 8", "Tile"], "a cached device without a signal is not live")
        let state = await app.scanner.state
        XCTAssertEqual(state, .scanning)

        // Heard at last: the cached device's signal arrives, and it is listed as random.
        let watch = "/org/bluez/hci0/dev_C0_98_E5_49_00_09"
        try await mock.addProperty(watch, "org.bluez.Device1", "RSSI", .int16(-90))
        try await mock.set(watch, "org.bluez.Device1", "RSSI", .int16(-61))
        try await eventually("Old Watch listed once heard") { app.row("Old Watch")?.rssi == -61 }
        let watchRow = await app.row("Old Watch")
        XCTAssertEqual(watchRow?.id.kind, .leRandom)

        // No name of its own: an alias given elsewhere names it, BlueZ's address-like default does not.
        let nameless = "/org/bluez/hci0/dev_C0_98_E5_49_00_0A"
        try await mock.addObject(nameless, "org.bluez.Device1", [
            "Address": .string("C0:98:E5:49:00:0A"), "AddressType": .string("random"), "Alias": .string("C0-98-E5-49-00-0A"),
            "Adapter": .objectPath("/org/bluez/hci0"), "RSSI": .int16(-70),
        ])
        try await eventually("the nameless device listed") { app.scanner.rows.contains { $0.id.address == "C0:98:E5:49:00:0A" } }
        let unnamed = await app.scanner.rows.first { $0.id.address == "C0:98:E5:49:00:0A" }
        XCTAssertEqual(unnamed?.isUnnamed, true)
        try await mock.set(nameless, "org.bluez.Device1", "Alias", .string("Bike lock"))
        try await mock.set(nameless, "org.bluez.Device1", "RSSI", .int16(-69))
        try await eventually("named by its alias") { app.row("Bike lock") != nil }
        await app.scanner.stop()
    }

    func testDiscoveryAsksForEveryAdvertisementFirstAndStopsWhenScanningStops() async throws {
        let adapter = try await mock.addAdapter()
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("scanning") { app.scanner.state == .scanning }
        let calls = try await mock.calls(adapter).filter { $0.hasSuffix("Discovery") || $0 == "SetDiscoveryFilter" }
        XCTAssertEqual(calls, ["SetDiscoveryFilter", "StartDiscovery"])
        let filter = try await mock.arguments(adapter, "SetDiscoveryFilter").first?.first
        XCTAssertEqual(filter?.stringKeyed?["Transport"], .string("auto"))
        XCTAssertEqual(filter?.stringKeyed?["DuplicateData"], .bool(true))
        let discovering = try await mock.get(adapter, "org.bluez.Adapter1", "Discovering")
        XCTAssertEqual(discovering, .bool(true))

        await app.scanner.stop()
        let mock = self.mock!
        try await MockBlueZ.eventually(10, "StopDiscovery called") { try await mock.calls(adapter).last == "StopDiscovery" }
        try await eventually("paused") { app.scanner.state == .paused }
    }

    func testAStopRightAfterAStartLeavesBlueZNotDiscoveringAndTwoStartsScanOnce() async throws {
        let adapter = try await mock.addAdapter()
        // A slow StartDiscovery, so the stop comes while discovery is still starting.
        try await mock.addMethod(adapter, "org.bluez.Adapter1", "StartDiscovery", code:
            "import time; time.sleep(0.5); self.UpdateProperties('org.bluez.Adapter1', {'Discovering': dbus.Boolean(True)})")
        let scanner = BlueZScanner(bus: BlueZBus(address: mock.address))
        let states = scanner.states
        scanner.start()
        let mock = self.mock!
        try await MockBlueZ.eventually(10, "StartDiscovery under way") { try await mock.calls(adapter).contains("StartDiscovery") }
        scanner.stop()
        try await MockBlueZ.eventually(10, "discovery ended") { try await mock.calls(adapter).last == "StopDiscovery" }
        let discovering = try await mock.get(adapter, "org.bluez.Adapter1", "Discovering")
        XCTAssertEqual(discovering, .bool(false), "no discovery left running for a scan that was stopped")

        scanner.start()
        scanner.start()
        var iterator = states.makeAsyncIterator()
        while let state = await iterator.next(), state != .scanning {}
        // Real time on purpose: time for a stray third StartDiscovery to reach the mock, were one sent.
        try await Task.sleep(for: .milliseconds(300))
        let starts = try await mock.calls(adapter).filter { $0 == "StartDiscovery" }.count
        XCTAssertEqual(starts, 2, "one StartDiscovery for the first scan, one for the two starts of the second")
        scanner.stop()
    }

    func testInProgressCountsAsAlreadyScanning() async throws {
        let adapter = try await mock.addAdapter()
        try await mock.addMethod(adapter, "org.bluez.Adapter1", "StartDiscovery", code:
            "raise dbus.exceptions.DBusException('Operation already in progress', name='org.bluez.Error.InProgress')")
        try await mock.addDevice(phone, name: "Pixel 8")
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("scanning despite InProgress") { app.scanner.state == .scanning && app.row("Pixel 8") != nil }
        await app.scanner.stop()
    }

    func testSignalAndManufacturerDataChangesUpdateTheRowTheKeywordsAndThePlot() async throws {
        try await mock.addAdapter()
        let path = try await mock.addDevice(phone, name: "Pixel 8")
        let app = await App(address: mock.address, directory: directory)
        let detail = await DeviceDetailViewModel(id: phoneID, favorites: app.favorites, live: app.live, sightings: app.store.sightings)
        await app.scanner.start()
        try await eventually("listed") { app.row("Pixel 8") != nil }

        // The plot keeps one reading a second: a second and more apart, both are kept.
        for rssi: Int16 in [-60] + [Int16](repeating: -40, count: 12) {
            try await mock.set(path, "org.bluez.Device1", "RSSI", .int16(rssi))
            // Real time on purpose: the gap between readings is what the smoothing test measures.
            try await Task.sleep(for: .milliseconds(rssi == -60 ? 1100 : 60))
        }
        try await eventually("the row follows the signal") { (app.row("Pixel 8")?.rssi ?? -100) >= -45 }
        try await eventually("the detail's figure is the last reading") { detail.rssi == -40 }
        let history = await detail.signalHistory()
        XCTAssertEqual(history?.last, -40)
        XCTAssertEqual(history?.highest, -40)
        XCTAssertLessThanOrEqual(history?.lowest ?? 0, -60, "the plot holds the readings as they came")

        let apple = DBusValue.dictionary(keyType: "q", valueType: "v", [.init(.uint16(0x004C), .variant(.bytes([0x02, 0x15, 0x01])))])
        try await mock.set(path, "org.bluez.Device1", "ManufacturerData", apple)
        try await mock.set(path, "org.bluez.Device1", "UUIDs", .array(elementType: "s", [.string("0000180f-0000-1000-8000-00805f9b34fb")]))
        try await eventually("the properties name the company and the service") {
            detail.properties.manufacturer?.hasPrefix("Apple") == true && detail.properties.services == "Battery"
        }
        let keywords = await detail.keywords
        XCTAssertTrue(keywords.contains("Bluetooth LE"), "\(keywords)")
        XCTAssertFalse(keywords.contains { $0.hasPrefix("Apple") || $0 == "Battery" }, "said once, as properties: \(keywords)")
        let txPower = await detail.properties.txPower
        XCTAssertNotNil(txPower, "the TX power, a property")
        await app.scanner.stop()
    }

    func testARemovedDeviceFadesAtOnceAndAFavoriteKeepsItsHeart() async throws {
        let adapter = try await mock.addAdapter()
        let path = try await mock.addDevice(phone, name: "Pixel 8")
        try await mock.addDevice(tag, name: "Tile")
        let app = await App(address: mock.address, directory: directory)
        await app.favorites.load()
        let added = await app.favorites.add(phoneID, name: "Pixel 8", nickname: "My phone")
        XCTAssertNotNil(added)
        await app.scanner.start()
        try await eventually("both listed") { app.row("My phone") != nil && app.row("Tile") != nil }
        let fresh = await app.row("My phone")
        XCTAssertEqual(fresh?.isStale, false)

        // A favorite's readings are stored, as on the HCI route.
        let sightings = app.store.sightings
        let id = phoneID
        try await MockBlueZ.eventually(10, "a stored sighting") { try await sightings.summary(for: id) != nil }

        try await mock.call(adapter, "org.bluez.Adapter1", "RemoveDevice", [.objectPath(path)])
        try await eventually("the row fades at once") { app.row("My phone")?.isStale == true }
        let row = await app.row("My phone")
        XCTAssertEqual(row?.isFavorite, true, "the heart stays filled")
        let tile = await app.row("Tile")
        XCTAssertEqual(tile?.isStale, false, "other devices are untouched")
        let favorites = await app.favorites.list.map(\.displayName)
        XCTAssertEqual(favorites, ["My phone"], "the favorite itself is never touched")
        let stored = try await app.store.favorites.all().map(\.nickname)
        XCTAssertEqual(stored, ["My phone"])
        await app.scanner.stop()
    }

    func testAnAdapterThatIsOffOffersTurnOnWhichStartsTheScan() async throws {
        let adapter = try await mock.addAdapter()
        try await mock.set(adapter, "org.bluez.Adapter1", "Powered", .bool(false))
        try await mock.addDevice(phone, name: "Pixel 8")
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("failed: Bluetooth is off") { app.scanner.state == .failed(.adapterOff) }
        let calls = try await mock.calls(adapter)
        XCTAssertFalse(calls.contains("StartDiscovery"), "no discovery on an adapter that is off")

        await app.live.powerOn()
        try await eventually("scanning after Turn On") { app.scanner.state == .scanning && app.row("Pixel 8") != nil }
        let powered = try await mock.get(adapter, "org.bluez.Adapter1", "Powered")
        XCTAssertEqual(powered, .bool(true))

        // Switched off elsewhere mid-scan: the page says so again, and the devices stay.
        try await mock.set(adapter, "org.bluez.Adapter1", "Powered", .bool(false))
        try await eventually("off again") { app.scanner.state == .failed(.adapterOff) }
        let rows = await app.scanner.rows.count
        XCTAssertEqual(rows, 1)
        // Switched on elsewhere: scanning resumes by itself.
        try await mock.set(adapter, "org.bluez.Adapter1", "Powered", .bool(true))
        try await eventually("resumed") { app.scanner.state == .scanning }
        await app.scanner.stop()
    }

    func testABlockedAdapterSaysSoAndNamesAirplaneModeAndRfkill() async throws {
        let adapter = try await mock.addAdapter()
        try await mock.addProperty(adapter, "org.bluez.Adapter1", "PowerState", .string("off-blocked"))
        try await mock.set(adapter, "org.bluez.Adapter1", "Powered", .bool(false))
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("blocked") { app.scanner.state == .failed(.adapterBlocked) }
        XCTAssertTrue(ScanFailure.adapterBlocked.suggestion.contains("airplane mode"))
        XCTAssertTrue(ScanFailure.adapterBlocked.suggestion.contains("rfkill"))
        await app.scanner.stop()
    }

    func testWhenBluetoothdDiesTheDevicesStayAndANewOneResumesScanning() async throws {
        try await mock.addAdapter()
        try await mock.addDevice(phone, name: "Pixel 8")
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("listed") { app.row("Pixel 8") != nil }

        mock.killMock()
        try await eventually("failed, for the banner") {
            if case .failed(.disconnected) = app.scanner.state { return true } else { return false }
        }
        let kept = await app.titles
        XCTAssertEqual(kept, ["Pixel 8"], "the list stays under the banner")

        try await mock.startMock()
        let adapter = try await mock.addAdapter()
        try await mock.addDevice(tag, name: "Tile")
        try await eventually("scanning again by itself") { app.scanner.state == .scanning && app.row("Tile") != nil }
        let calls = try await mock.calls(adapter)
        XCTAssertTrue(calls.contains("StartDiscovery"), "\(calls)")
        await app.scanner.stop()
    }

    func testWhenTheSystemBusGoesAwayTheScanFailsWithAReasonInsteadOfHanging() async throws {
        try await mock.addAdapter()
        try await mock.addDevice(phone, name: "Pixel 8")
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("listed") { app.row("Pixel 8") != nil }
        mock.killBus()
        try await eventually("failed: the bus was lost", 5) {
            if case .failed(.disconnected(let why)) = app.scanner.state { return why.contains("system bus") } else { return false }
        }
        let rows = await app.scanner.rows.count
        XCTAssertEqual(rows, 1, "the list stays")
        // Try Again answers at once, with a reason, however the bus went.
        await app.scanner.start()
        try await eventually("failed again, not hanging", 5) {
            if case .failed(.unavailable) = app.scanner.state { return true } else { return false }
        }
        await app.scanner.stop()
    }

    func testAnAdapterRemovedMidScanKeepsTheListAndSaysWhy() async throws {
        try await mock.addAdapter()
        try await mock.addDevice(phone, name: "Pixel 8")
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("listed") { app.row("Pixel 8") != nil }
        try await mock.call("/org/bluez", "org.bluez.Mock", "RemoveAdapter", [.string("hci0")])
        try await eventually("failed") {
            if case .failed(.disconnected(let why)) = app.scanner.state { return why.contains("hci0") } else { return false }
        }
        let rows = await app.scanner.rows.count
        XCTAssertEqual(rows, 1)
        // Plugged back in: scanning resumes.
        try await mock.addAdapter()
        try await eventually("scanning again") { app.scanner.state == .scanning }
        await app.scanner.stop()
    }

    func testNoAdapterOrNoServiceFailsWithAClearMessage() async throws {
        let app = await App(address: mock.address, directory: directory)
        await app.scanner.start()
        try await eventually("no adapter") {
            if case .failed(.unavailable(let why)) = app.scanner.state { return why.contains("no adapter") } else { return false }
        }
        await app.scanner.stop()
        mock.killMock()
        let other = await App(address: mock.address, directory: directory)
        await other.scanner.start()
        try await eventually("not running") {
            if case .failed(.unavailable(let why)) = other.scanner.state { return why.contains("bluetoothd") } else { return false }
        }
        await other.scanner.stop()
    }

    func testAutoScanStopsDiscoveryBetweenWindows() async throws {
        let adapter = try await mock.addAdapter()
        let app = await App(address: mock.address, directory: directory)
        await MainActor.run { app.live.start(mode: .periodic(windowSeconds: 1, intervalSeconds: 2)) }
        try await eventually("scanning") { app.live.state == .scanning }
        try await eventually("waiting between windows", 5) { app.live.state == .waiting }
        try await eventually("scanning again", 5) { app.live.state == .scanning }
        let calls = try await mock.calls(adapter).filter { $0.hasSuffix("Discovery") }
        XCTAssertEqual(Array(calls.prefix(3)), ["StartDiscovery", "StopDiscovery", "StartDiscovery"])
        await app.live.stop()
    }
}
