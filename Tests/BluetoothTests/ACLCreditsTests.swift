// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Foundation
import XCTest

/// The controller's LE buffers are one pool for all its links (Core v5.4, Vol 4, Part E,
/// §4.1.1): two links together never have more packets out than the controller has buffers,
/// the one that waited goes on when a buffer comes back, and a link that ends gives back its own.
final class ACLCreditsTests: XCTestCase {
    private final class Wire: @unchecked Sendable {
        private let lock = NSLock()
        private var sent: [UInt16] = []
        func add(_ bytes: [UInt8]) { lock.withLock { sent.append(UInt16(bytes[0]) | UInt16(bytes[1] & 0x0F) << 8) } }
        var handles: [UInt16] { lock.withLock { sent } }
    }

    func testTwoLinksShareTheControllersBuffers() {
        let wire = Wire(), credits = ACLCredits(count: 2)
        let a = ACLOutbox(handle: 1, bufferSize: 27, bufferCount: 2, credits: credits) { wire.add($0) }
        let b = ACLOutbox(handle: 2, bufferSize: 27, bufferCount: 2, credits: credits) { wire.add($0) }
        // Three packets on link 1 (each frame fits one 27-byte packet), one on link 2.
        for _ in 0..<3 { a.send(frame: [4, 0, 4, 0, 1, 2, 3, 4]) }
        b.send(frame: [4, 0, 4, 0, 9, 9, 9, 9])
        XCTAssertEqual(wire.handles, [1, 1], "two buffers, two packets out")
        XCTAssertEqual(a.backlog + b.backlog, 2)
        a.completed(1)
        XCTAssertEqual(wire.handles, [1, 1, 1], "link 1 asked first, and goes on first")
        a.completed(1)
        XCTAssertEqual(wire.handles, [1, 1, 1, 2], "then link 2")
        // Link 1 ends with a packet still out: its buffer is the controller's again.
        a.close()
        XCTAssertEqual(credits.available, 1)
        b.completed(1)
        XCTAssertEqual(credits.available, 2)
        a.send(frame: [4, 0, 4, 0, 1, 2, 3, 4])
        XCTAssertEqual(wire.handles.count, 4, "an ended link sends nothing")
    }
}
