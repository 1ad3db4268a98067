// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import XCTest

/// FavBlue's CBOR and MCUboot reader against trusted tools: PyPI's cbor2 reads what FavBlue
/// writes and writes what FavBlue reads (definite and indefinite lengths mixed, as Zephyr's
/// zcbor sends), and imgtool's signed image reads as imgtool made it.
final class DeviceManagerOracleTests: XCTestCase {
    /// How an item reads, named the same way as peers/cbor_oracle.py does.
    private func shape(_ item: CBOR) -> String {
        switch item {
        case .unsigned(let n): return "i:\(n)"
        case .negative(let n): return n == UInt64.max ? "i:-18446744073709551616" : "i:-\(n + 1)"
        case .bytes(let b): return "b:" + Hex.compact(b).lowercased()
        case .text(let t): return "t:" + Hex.compact(Array(t.utf8)).lowercased()
        case .array(let items): return "[" + items.map(shape).joined(separator: ",") + "]"
        case .map(let pairs): return "{" + pairs.map { "\(shape($0.key))=\(shape($0.value))" }.joined(separator: ",") + "}"
        case .bool(let b): return b ? "T" : "F"
        case .null: return "N"
        case .undefined: return "U"
        case .float(let d): return "f:\(d)"
        }
    }

    private func oracle(_ arguments: [String], input: String? = nil) throws -> String {
        let script = Peers.root.appending(path: "Tests/PeerTests/peers/cbor_oracle.py").path
        let (status, out, err) = try runTool(try Peers.python(), [script] + arguments, input: input)
        XCTAssertEqual(status, 0, err)
        return out
    }

    func testWhatCBOR2WritesReadsAsCBOR2ReadsIt() throws {
        let lines = try oracle(["make", "400", "20261205"]).split(separator: "\n")
        XCTAssertEqual(lines.count, 400)
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1)
            let bytes = try XCTUnwrap(Hex.bytes(parts[0]))
            let item = try CBOR.decode(bytes)
            XCTAssertEqual(shape(item), String(parts[1]), String(parts[0].prefix(60)))
        }
    }

    func testWhatFavBlueWritesReadsInCBOR2AsItWasMade() throws {
        let items: [CBOR] = [
            .object(["image": .int(0), "len": .int(524_288), "off": .int(0), "sha": .bytes([UInt8](repeating: 0xAB, count: 32)),
                     "data": .bytes(Array(0..<200)), "upgrade": .bool(true)]),
            .object(["argv": .array([.text("kernel"), .text("uptime")])]),
            .array([.int(-1), .int(-256), .int(-65_537), .int(Int64.min), .unsigned(UInt64.max), .null, .text("Grüße 😀")]),
        ]
        let read = try oracle(["read"], input: items.map { Hex.compact($0.encoded).lowercased() }.joined(separator: "\n") + "\n")
        XCTAssertEqual(read.split(separator: "\n").map(String.init), items.map(shape))
    }

    /// imgtool (the tool MCUboot's users sign with) makes the image; FavBlue reads its version,
    /// size and hash, and the hash is the SHA-256 of the header and image, as MCUboot checks it.
    func testAnImageSignedByImgtoolReadsAsImgtoolMadeIt() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "imgtool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appending(path: "zephyr.bin"), signed = folder.appending(path: "zephyr.signed.bin")
        try Data((0..<30_000).map { UInt8(($0 * 31) % 256) }).write(to: raw)
        let imgtool = URL(fileURLWithPath: try Peers.python()).deletingLastPathComponent().appending(path: "imgtool").path
        let (status, _, err) = try runTool(imgtool, ["sign", "--header-size", "0x200", "--align", "4", "--version", "1.2.3+4",
                                                      "--slot-size", "0x40000", "--pad-header", raw.path, signed.path])
        XCTAssertEqual(status, 0, err)
        let bytes = Array(try Data(contentsOf: signed))
        let image = try MCUbootImage.read(bytes)
        XCTAssertEqual(image.version.description, "1.2.3+4")
        XCTAssertEqual(image.headerSize, 0x200)
        XCTAssertEqual(image.imageSize, 30_000)
        XCTAssertEqual(image.fileSize, bytes.count)
        let check = "import hashlib,sys; d=open(sys.argv[1],'rb').read(); print(hashlib.sha256(d[:0x200+30000]).hexdigest())"
        let (_, expected, _) = try runTool(try Peers.python(), ["-c", check, signed.path])
        XCTAssertEqual(Hex.compact(image.hash ?? []).lowercased(), expected.trimmingCharacters(in: .whitespacesAndNewlines))
        let (shown, out, _) = try runTool(scanToolPath, ["image-info", signed.path])
        XCTAssertEqual(shown, 0)
        XCTAssertTrue(out.hasPrefix("version: 1.2.3+4\nsize: \(bytes.count) bytes (image 30000, header 512)\nhash: \(expected.trimmingCharacters(in: .whitespacesAndNewlines))\n"), out)
    }
}
