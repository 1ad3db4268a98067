// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import TestSupport
@testable import Views
import ViewModels
import XCTest

final class DeviceServicesSectionTests: XCTestCase {
    /// A device that connects again and again (a chat peer dropping the link every minute) is shown
    /// in the same rows each time, opened as the user left them; a changed tree gets new ones.
    func testTheRowsOfAnEarlierConnectionAreLetGo() {
        MainActor.assumeIsolated {
            let device = TestDevices.id(7, kind: .leRandom)
            let connector = FakeConnector()
            connector.service = nil
            connector.tree = [
                GATTService(uuid: BluetoothUUID(0x1800), name: "Generic Access", start: 1, end: 3, characteristics: [
                    GATTCharacteristic(uuid: BluetoothUUID(0x2A00), name: "Device Name", handle: 2, valueHandle: 3, properties: [.read]),
                ]),
                GATTService(uuid: BluetoothUUID(0x180D), name: "Heart Rate", start: 4, end: 7, characteristics: [
                    GATTCharacteristic(uuid: BluetoothUUID(0x2A37), name: "Heart Rate Measurement", handle: 5, valueHandle: 6, properties: [.notify],
                                       descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 7)]),
                ]),
            ]
            let sessions = ChatSessions(connector: connector, chats: nil)
            let browser = GATTBrowser(sessions: sessions)
            let model = DeviceServicesViewModel(browser: browser)
            WindowHarness.run(splashMs: 0, timeout: 60) { window in
                let section = DeviceServicesSection(device: device, model: model, connection: nil, navigator: window)
                var first: ExpanderRow?
                for round in 0..<3 {
                    sessions.connect(to: device)
                    let shown = await WindowHarness.wait(5) { section.root.isVisible && section.list.allRows.count == 2 }
                    XCTAssertTrue(shown, "connection \(round + 1) lists its services")
                    let row = section.list.allRows.first as? ExpanderRow
                    if round == 0 {
                        first = row
                        row?.isExpanded = true
                    } else {
                        XCTAssertTrue(row === first, "connection \(round + 1) shows the tree in the same rows")
                        XCTAssertEqual(row?.isExpanded, true, "opened as the user left it")
                    }
                    connector.disconnect()
                    let hidden = await WindowHarness.wait(5) { !section.root.isVisible }
                    XCTAssertTrue(hidden, "the section goes when the connection ends")
                }
                // The device's services changed while it was away: new rows.
                connector.tree.removeLast()
                weak var old = first
                first = nil
                sessions.connect(to: device)
                let rebuilt = await WindowHarness.wait(5) { section.root.isVisible && section.list.allRows.count == 1 }
                XCTAssertTrue(rebuilt, "a changed tree is listed anew")
                XCTAssertNil(old, "and the old rows are let go")
                withExtendedLifetime(section) {}
            }
        }
    }
}
