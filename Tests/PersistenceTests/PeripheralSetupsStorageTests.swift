// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB
@testable import Persistence
import XCTest

/// What Act as a Device set up, in a real SQLite file: it outlives the process as it was, and a
/// kept file that no longer reads says so instead of coming back empty.
final class PeripheralSetupsStorageTests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/" + StoreFactory.fileName }

    override func setUp() {
        super.setUp()
        directory = NSTemporaryDirectory() + "favblue-peripheral-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func testTheSetupOutlivesReopeningTheFile() async throws {
        var ad = AdvertisingPreset.heartRate.advertisement()
        ad.data.localName = "Pulse \u{202E}1"
        let file = PeripheralFile(advertisements: [ad], server: AdvertisingPreset.heartRate.server())
        do {
            let store = StoreFactory.open(.sqlite, directory: directory)
            try await store.peripheral.save(file)
        }
        let again = try await StoreFactory.open(.sqlite, directory: directory).peripheral.load()
        XCTAssertEqual(again.advertisements, file.advertisements)
        XCTAssertEqual(again.server, file.server)
        XCTAssertEqual(again.advertisements.first?.data.localName, "Pulse \u{202E}1", "a name comes back exactly")
    }

    func testAKeptFileThatNoLongerReadsSaysWhyAndIsLeftAsItWas() async throws {
        do {
            let store = StoreFactory.open(.sqlite, directory: directory)
            try await store.peripheral.save(PeripheralFile())
        }
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE peripheral_setups SET file = ?", arguments: ["{\"format\": \"favblue-peripheral\", \"version\": 9}"])
        }
        let store = StoreFactory.open(.sqlite, directory: directory)
        let role = await PeripheralRole(port: UnavailablePeripheral(reason: "none"), store: store.peripheral)
        let said = SaidBox()
        await MainActor.run { role.onStoreProblem = { said.text = $0 } }
        await role.load()
        let text = await MainActor.run { said.text }
        XCTAssertEqual(text?.hasPrefix("What you set up to advertise and serve could not be read, so changes made now are not saved:"), true,
                       text ?? "nothing said")
        _ = await role.add(AdvertisingPreset.battery.advertisement())
        await role.flush()
        let kept = try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT file FROM peripheral_setups") }
        XCTAssertEqual(kept, "{\"format\": \"favblue-peripheral\", \"version\": 9}", "the unreadable file is not written over")
    }
}

@MainActor
private final class SaidBox {
    var text: String?
}
