// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// MCUmgr's console framing, byte for byte as PyPI's smp (the reference) frames its own examples.
final class SMPSerialFramingTests: XCTestCase {
    func testAMessageIsFramedAsTheReferenceFramesIt() {
        // smp.packet.encode(b"Hello, world!") and with line_length=8.
        XCTAssertEqual(SMPSerialFraming.encode(Array("Hello, world!".utf8)), [[0x06, 0x09] + Array("AA9IZWxsbywgd29ybGQhet4=\n".utf8)])
        XCTAssertEqual(SMPSerialFraming.encode(Array("Hello, world!".utf8), lineLength: 8),
                       [[0x06, 0x09] + Array("AA9I\n".utf8)] + ["ZWxs", "bywg", "d29y", "bGQh", "et4="].map { [0x04, 0x14] + Array("\($0)\n".utf8) })
        XCTAssertEqual(SMPSerialFraming.crc16(Array("123456789".utf8)), 0x31C3, "CRC-16/XMODEM's check value")
    }

    func testLinesAmongConsoleOutputMakeOneMessageAndABadOneIsSaid() {
        var decoder = SMPSerialFraming.Decoder()
        let message = Array("Hello, world!".utf8)
        var bytes: [UInt8] = Array("uart:~$ \r\n*** Booting Zephyr ***\n".utf8)
        for line in SMPSerialFraming.encode(message, lineLength: 8) { bytes += line + Array("uart:~$ \n".utf8) }
        // Byte by byte, as a slow line hands them over.
        var got: [[UInt8]] = []
        for byte in bytes { got += decoder.add([byte]).messages }
        XCTAssertEqual(got, [message])
        var corrupt = SMPSerialFraming.encode(message)[0]
        corrupt[5] = UInt8(ascii: "B")
        let (none, problems) = decoder.add(corrupt)
        XCTAssertEqual(none, [])
        XCTAssertEqual(problems, ["A frame from the device failed its CRC check: the line may be noisy."])
    }

    func testAFrameThatNeverEndsDoesNotGrowWithoutBound() {
        var decoder = SMPSerialFraming.Decoder(limit: 64)
        // A length of 65,535 announced, then endless lines of base64.
        var said: [String] = []
        said += decoder.add([0x06, 0x09] + Array("//8A\n".utf8)).problems
        for _ in 0..<100 { said += decoder.add([0x04, 0x14] + Array("QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB\n".utf8)).problems }
        XCTAssertEqual(said.first, "A frame from the device grew longer than any message.")
    }
}
