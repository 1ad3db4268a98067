// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Crypto
import Domain
import SecurityToolbox
import XCTest

private func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0 ... $0 + 1]), radix: 16)! }
}

final class ToolboxTests: XCTestCase {
    // RFC 4493 §4: the four examples under one key.
    private let cmacKey = hex("2b7e1516 28aed2a6 abf71588 09cf4f3c")
    private let cmacMessage = hex("""
        6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51
        30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710
        """)

    func testAESCMACMatchesTheFourExamplesOfRFC4493() throws {
        let expected = [
            0: "bb1d6929 e9593728 7fa37d12 9b756746",
            16: "070a16b4 6b4d4144 f79bdd9d d04a287c",
            40: "dfa66747 de9ae630 30ca3261 1497c827",
            64: "51f0bebf 7e3b9d92 fc497417 79363cfe",
        ]
        for (length, mac) in expected {
            XCTAssertEqual(try Toolbox.aesCMAC(key: cmacKey, Array(cmacMessage.prefix(length))), hex(mac), "\(length) bytes")
        }
    }

    func testAHMatchesTheCoreSpecSampleData() throws {
        // Core spec Vol 3 Part H Appendix D.7.
        XCTAssertEqual(try Toolbox.ah(irk: hex("ec0234a357c8ad05341010a60a397d9b"), prand: 0x708194), 0x0DFBAA)
    }

    // Core spec Vol 3 Part H Appendix D, the values as it prints them (most significant octet first).
    private let u = hex("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
    private let v = hex("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
    private let n1 = hex("d5cb8454 d177733e ffffb2ec 712baeab")
    private let n2 = hex("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf")
    private let dhKey = hex("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698")
    private let a1 = hex("00561237 37bfce")
    private let a2 = hex("00a71370 2dcfc1")

    func testC1AndS1MatchTheSampleDataOfLegacyPairing() throws {
        let zero = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(try Toolbox.c1(k: zero, r: hex("5783D52156AD6F0E6388274EC6702EE0"), preq: hex("07071000000101"),
                                      pres: hex("05000800000302"), iat: 1, ia: hex("A1A2A3A4A5A6"), rat: 0, ra: hex("B1B2B3B4B5B6")),
                       hex("1e1e3fef878988ead2a74dc5bef13b86"))
        XCTAssertEqual(try Toolbox.s1(k: zero, r1: hex("000F0E0D0C0B0A091122334455667788"), r2: hex("010203040506070899AABBCCDDEEFF00")),
                       hex("9a1fe1f0e8b0f49b5b4216ae796da062"))
    }

    func testTheSecureConnectionsFunctionsMatchTheSpecsSampleData() throws {
        XCTAssertEqual(try Toolbox.f4(u: u, v: v, x: n1, z: 0), hex("f2c916f1 07a9bd1c f1eda1be a974872d"))
        let keys = try Toolbox.f5(w: dhKey, n1: n1, n2: n2, a1: a1, a2: a2)
        XCTAssertEqual(keys.macKey, hex("2965f176 a1084a02 fd3f6a20 ce636e20"))
        XCTAssertEqual(keys.ltk, hex("69867911 69d7cd23 980522b5 94750a38"))
        XCTAssertEqual(try Toolbox.f6(w: keys.macKey, n1: n1, n2: n2, r: hex("12a3343b b453bb54 08da42d2 0c2d0fc8"),
                                      ioCap: hex("010102"), a1: a1, a2: a2),
                       hex("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
        XCTAssertEqual(try Toolbox.g2(u: u, v: v, x: n1, y: n2), 0x2F9E_D5BA)
        XCTAssertEqual(try Toolbox.h6(w: hex("ec0234a3 57c8ad05 341010a6 0a397d9b"), keyID: Array("lebr".utf8)),
                       hex("2d9ae102 e76dc91c e8d3a9e2 80b16399"))
    }

    func testTheP256KeyAgreementGivesTheSpecsDHKeyBothWays() throws {
        let privateA = try P256.KeyAgreement.PrivateKey(rawRepresentation:
            hex("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd"))
        let privateB = try P256.KeyAgreement.PrivateKey(rawRepresentation: v)
        let publicA = privateA.publicKey.rawRepresentation
        XCTAssertEqual(Array(publicA.prefix(32)), u, "the spec's public key A")
        let publicB = Array(privateB.publicKey.rawRepresentation)
        XCTAssertEqual(try Toolbox.dhKey(privateKey: privateA, peerX: Array(publicB.prefix(32)), peerY: Array(publicB.suffix(32))), dhKey)
        XCTAssertEqual(try Toolbox.dhKey(privateKey: privateB, peerX: Array(publicA.prefix(32)), peerY: Array(publicA.suffix(32))), dhKey)
        // A point that is not on the curve is refused, not used.
        XCTAssertThrowsError(try Toolbox.dhKey(privateKey: privateA, peerX: u, peerY: u))
    }

    func testAWrongKeyLengthIsAnErrorNotATrap() {
        XCTAssertThrowsError(try Toolbox.e(key: [1, 2, 3], [UInt8](repeating: 0, count: 16)))
        XCTAssertThrowsError(try Toolbox.e(key: [UInt8](repeating: 0, count: 16), [1]))
    }
}

final class PrivateAddressResolutionTests: XCTestCase {
    private let irk = try! IdentityResolvingKey(parsing: "ec0234a357c8ad05341010a60a397d9b")
    private let identity = try! DeviceID(parsing: "C4:11:22:33:44:55", kind: .leRandom)

    func testTheSpecsSampleAddressResolvesToItsBondsIdentity() throws {
        var resolver = PrivateAddressResolver(hashing: AESAddressHashing(), bonds: [
            ResolvingBond(identity: try DeviceID(parsing: "00:11:22:33:44:55", kind: .lePublic),
                          irk: try IdentityResolvingKey(parsing: "00112233445566778899aabbccddeeff")),
            ResolvingBond(identity: identity, irk: irk),
        ])
        let heard = try DeviceID(parsing: "70:81:94:0D:FB:AA", kind: .leRandom)
        XCTAssertEqual(resolver.resolve(heard), identity)
        XCTAssertEqual(resolver.hashesComputed, 2, "each bond tried once")
        XCTAssertEqual(resolver.resolve(heard), identity)
        XCTAssertEqual(resolver.hashesComputed, 2, "the second report costs no AES")
        XCTAssertNil(resolver.resolve(try DeviceID(parsing: "70:81:94:0D:FB:AB", kind: .leRandom)), "one bit off")
    }

    func testTheResolversKeptKeyScheduleHashesAsTheToolboxDoes() throws {
        // The spec's sample (Vol 3, Part H, Appendix D.7), then keys and prands of every shape.
        XCTAssertEqual(AESAddressHashing().prepared(irk)(0x70_8194), 0x0D_FBAA)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let prepared = AESAddressHashing().prepared(try XCTUnwrap(IdentityResolvingKey(bytes: bytes)))
            for _ in 0..<5 {
                let prand = UInt32.random(in: 0...0xFF_FFFF, using: &generator)
                XCTAssertEqual(prepared(prand), try Toolbox.ah(irk: bytes, prand: prand))
            }
        }
    }

    func testOnlyResolvablePrivateAddressesAreTried() throws {
        var resolver = PrivateAddressResolver(hashing: AESAddressHashing(), bonds: [ResolvingBond(identity: identity, irk: irk)])
        for text in ["70:81:94:0D:FB:AA"] {
            XCTAssertNil(resolver.resolve(try DeviceID(parsing: text, kind: .lePublic)), "a public address")
            XCTAssertNil(resolver.resolve(try DeviceID(parsing: text, kind: .bredr)), "a classic address")
        }
        XCTAssertNil(resolver.resolve(try DeviceID(parsing: "F0:81:94:0D:FB:AA", kind: .leRandom)), "a static address")
        XCTAssertNil(resolver.resolve(try DeviceID(parsing: "30:81:94:0D:FB:AA", kind: .leRandom)), "a non-resolvable address")
        XCTAssertEqual(resolver.hashesComputed, 0)
    }

    func testAKeyPrintedTheOtherWayRoundResolvesOnceSwapped() throws {
        let swapped = irk.byteSwapped
        var resolver = PrivateAddressResolver(hashing: AESAddressHashing(), bonds: [ResolvingBond(identity: identity, irk: swapped)])
        let heard = try DeviceID(parsing: "70:81:94:0D:FB:AA", kind: .leRandom)
        XCTAssertNil(resolver.resolve(heard))
        resolver.setBonds([ResolvingBond(identity: identity, irk: swapped.byteSwapped)])
        XCTAssertEqual(resolver.resolve(heard), identity, "a new set of bonds forgets the earlier no")
    }

    func testTheMemoryStaysBoundedUnder100000Addresses() throws {
        var resolver = PrivateAddressResolver(hashing: AESAddressHashing(), bonds: [ResolvingBond(identity: identity, irk: irk)],
                                              capacity: 4096)
        for n in 0 ..< 100_000 {
            // Resolvable private addresses (top bits 01) that are all different.
            let value = UInt64(0x40_0000_0000_00) | UInt64(n) << 24 | UInt64(n & 0xFFFF)
            let id = DeviceID(octets: (0 ..< 6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - UInt64($0)))) }, kind: .leRandom)
            XCTAssertNil(resolver.resolve(id))
            XCTAssertLessThanOrEqual(resolver.remembered, 4096)
        }
        XCTAssertEqual(resolver.hashesComputed, 100_000)
        // The sample address still resolves amid them.
        XCTAssertEqual(resolver.resolve(try DeviceID(parsing: "70:81:94:0D:FB:AA", kind: .leRandom)), identity)
    }
}

final class IdentityResolvingKeyTests: XCTestCase {
    func testAKeyIsParsedFromHexWithOrWithoutSeparators() throws {
        let plain = try IdentityResolvingKey(parsing: "ec0234a357c8ad05341010a60a397d9b")
        XCTAssertEqual(try IdentityResolvingKey(parsing: "EC:02:34:A3:57:C8:AD:05:34:10:10:A6:0A:39:7D:9B"), plain)
        XCTAssertEqual(try IdentityResolvingKey(parsing: " ec0234a3 57c8ad05 341010a6 0a397d9b "), plain)
        XCTAssertEqual(plain.bytes.first, 0xEC)
        XCTAssertEqual(plain.byteSwapped.bytes.first, 0x9B)
    }

    func testANonKeyIsRefusedWithTheReason() {
        XCTAssertThrowsError(try IdentityResolvingKey(parsing: "ec02")) { XCTAssertEqual($0 as? IdentityResolvingKeyError, .wrongLength(4)) }
        XCTAssertThrowsError(try IdentityResolvingKey(parsing: "zz0234a357c8ad05341010a60a397d9b")) {
            XCTAssertEqual($0 as? IdentityResolvingKeyError, .notHex("z"))
        }
        XCTAssertThrowsError(try IdentityResolvingKey(parsing: "ec0234a357c8ad05341010a60a397d9b٣")) {
            XCTAssertEqual($0 as? IdentityResolvingKeyError, .notHex("٣"))
        }
    }

    func testAKeyNeverPrintsItself() throws {
        let key = try IdentityResolvingKey(parsing: "ec0234a357c8ad05341010a60a397d9b")
        XCTAssertFalse("\(key)".lowercased().contains("ec02"))
        XCTAssertFalse(String(reflecting: key).lowercased().contains("ec02"))
    }
}

/// Encrypted BTHome opened with the bindkey of bthome.io's encryption example, and refused by
/// its MIC with any other key: no garbage is shown.
final class SensorKeyringTests: XCTestCase {
    private func frame(_ address: String) -> SensorFrame {
        SensorFrame(address: address, name: nil, manufacturerData: [],
                    serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): Hex.bytes("41a47266c95f730011223378237214")!])
    }

    func testTheRightKeyOpensTheReadingsAndAWrongOneShowsNone() {
        let address = "54:48:E6:8F:80:A5"
        let right = SensorKeyring([address: Hex.bytes("231d39c1d7cc1ab1aee224cd096db932")!])
        let opened = SensorDecoders.decode(frame(address), keys: right)
        XCTAssertEqual(opened?.encrypted, false)
        XCTAssertEqual(opened?.readings.map(\.quantity.key), ["temperature", "humidity"])
        XCTAssertEqual(opened?.readings.map(\.value), [25.06, 50.55])
        XCTAssertEqual(opened?.sealed, true)
        XCTAssertEqual(opened?.counter, 0x3322_1100, "the counter, little-endian, that a replay must not go below")
        let wrong = SensorKeyring([address: Hex.bytes("231d39c1d7cc1ab1aee224cd096db933")!])
        let refused = SensorDecoders.decode(frame(address), keys: wrong)
        XCTAssertEqual(refused?.wrongKey, true)
        XCTAssertEqual(refused?.readings, [])
    }
}

/// A MiBeacon v5 frame sealed as a Xiaomi sensor seals it: opened with its key, it gives the
/// counter (the extension, then the frame counter) and the frame counter as its packet number.
final class MiBeaconCounterTests: XCTestCase {
    func testAnOpenedFrameCarriesItsCounterAndPacketNumber() throws {
        let address: [UInt8] = [0xA4, 0xC1, 0x38, 0x01, 0x02, 0x03]
        let key = Array(0x40..<0x50).map(UInt8.init)
        let control: UInt16 = 5 << 12 | 0x40 | 0x10 | 0x08
        let head: [UInt8] = [UInt8(control & 0xFF), UInt8(control >> 8), 0x5B, 0x05, 0x2A] + address.reversed()
        let ext: [UInt8] = [0x01, 0x02, 0x00]
        let objects: [UInt8] = [0x04, 0x10, 0x02, 0xD2, 0x00]  // 21.0 °C
        let sealed = try XCTUnwrap(SensorKeyring().ccmSeal(key: key, nonce: Array(address.reversed()) + [0x5B, 0x05, 0x2A] + ext,
                                                           plaintext: objects, associated: [0x11], tagLength: 4))
        let frame = SensorFrame(address: "A4:C1:38:01:02:03", name: nil, manufacturerData: [],
                                serviceData: [ServiceID(BluetoothUUID(0xFE95), name: nil): head + sealed.ciphertext + ext + sealed.tag])
        let opened = try XCTUnwrap(SensorDecoders.decode(frame, keys: SensorKeyring(["A4:C1:38:01:02:03": key])))
        XCTAssertEqual(opened.readings.map(\.value), [21])
        XCTAssertTrue(opened.sealed)
        XCTAssertEqual(opened.counter, 0x0002_012A)
        XCTAssertEqual(opened.packetID, 0x2A)
        let unopened = try XCTUnwrap(SensorDecoders.decode(frame))
        XCTAssertFalse(unopened.sealed)
        XCTAssertTrue(unopened.encrypted)
    }
}
