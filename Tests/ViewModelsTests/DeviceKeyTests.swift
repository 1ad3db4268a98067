// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// The detail page's key: offered for an LE favorite, refused with the reason, and still
/// removable after the favorite is gone, so no key stays behind where nothing shows it.
@MainActor
final class DeviceKeyTests: XCTestCase {
    /// ah as the key's first byte XOR prand: easy to build an address for by hand.
    private struct XorHashing: AddressHashing {
        func ah(irk: IdentityResolvingKey, prand: UInt32) -> UInt32 { (prand ^ UInt32(irk.bytes[0])) & 0xFF_FFFF }
    }

    /// The owners a detail page of `id`, a favorite named Band, reads.
    private func favoriteBand(_ id: DeviceID) async -> (Favorites, LiveDevices, Identities) {
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository([
            Favorite(id: id, nickname: "Band", lastKnownName: nil, addedAt: Date(), updatedAt: Date()),
        ])))
        await favorites.load()
        return (favorites, LiveDevices(makeScanner: { _ in FakeScanner() }, sightings: nil), Identities(hashing: XorHashing()))
    }

    func testAKeyIsRefusedWithItsReasonKeptAndStillRemovableOnceTheFavoriteIsGone() async throws {
        // A resolvable private address that a key starting with 0x5A resolves.
        let prand: UInt32 = 0x41_2345
        let value = UInt64(prand) << 24 | UInt64(prand ^ 0x5A)
        let id = DeviceID(octets: (0 ..< 6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - UInt64($0)))) }, kind: .leRandom)
        let (favorites, live, identities) = await favoriteBand(id)
        let detail = DeviceDetailViewModel(id: id, favorites: favorites, live: live, sightings: nil, identities: identities)
        XCTAssertTrue(detail.canHoldKey)
        XCTAssertFalse(detail.hasKey)

        let short = await detail.useKey("5a01")
        XCTAssertFalse(short.kept)
        XCTAssertEqual(short.message, "A key has 32 hex digits; this one has 4 digits.")
        let notHex = await detail.useKey("5g" + String(repeating: "0", count: 30))
        XCTAssertFalse(notHex.kept)
        XCTAssertEqual(notHex.message, "“g” is not a hex digit (0–9, A–F).")
        let other = await detail.useKey("33" + String(repeating: "0", count: 30))
        XCTAssertFalse(other.kept)
        XCTAssertTrue(other.message.contains("may belong to another device"), other.message)

        let kept = await detail.useKey("5A:" + String(repeating: "00:", count: 14) + "01")
        XCTAssertTrue(kept.kept, kept.message)
        XCTAssertTrue(detail.hasKey)
        XCTAssertTrue(detail.properties.addressNote?.contains("the key set below") == true)

        _ = await favorites.remove(id)
        XCTAssertFalse(detail.isFavorite)
        XCTAssertTrue(detail.canHoldKey, "a key outlives its favorite on the page, so it can be removed")
        let problem = await detail.removeKey()
        XCTAssertNil(problem)
        XCTAssertFalse(detail.hasKey)
        XCTAssertFalse(detail.canHoldKey, "nothing left to show for a device that is no favorite")
    }

    func testAKeyForAFavoriteSavedUnderAFixedAddressNamesTheDeviceItMatched() async throws {
        // Saved under its public address, the favorite cannot check a key itself: the key is tried
        // against the private addresses heard, and the page says which device it matched.
        let id = DeviceID(octets: [0x00, 0x1B, 0xDC, 0x00, 0x00, 0x07], kind: .lePublic)
        let prand: UInt32 = 0x41_2345
        let value = UInt64(prand) << 24 | UInt64(prand ^ 0x5A)
        let heard = DeviceID(octets: (0 ..< 6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - UInt64($0)))) }, kind: .leRandom)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository([
            Favorite(id: id, nickname: "Band", lastKnownName: nil, addedAt: Date(), updatedAt: Date()),
        ])))
        await favorites.load()
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 1000)
        live.start(mode: .continuous)
        scanner.feed(Observation(id: heard, timestamp: Date(), rssi: -60, name: "Stranger's Tag"))
        await live.drain()
        let detail = DeviceDetailViewModel(id: id, favorites: favorites, live: live, sightings: nil,
                                           identities: Identities(hashing: XorHashing()))
        XCTAssertTrue(detail.canHoldKey)
        let kept = await detail.useKey("5a" + String(repeating: "0", count: 30))
        XCTAssertTrue(kept.kept, kept.message)
        XCTAssertEqual(kept.message, "Key saved. It matches “\u{2068}Stranger's Tag\u{2069}”, heard at \u{2068}\(heard.address)\u{2069}, "
                       + "which FavBlue now shows as this favorite. If that is another device, remove the key.")
    }

    func testTheAddressNoteSuggestsPairingOnlyWhereTheRouteCanPair() async throws {
        let id = DeviceID(octets: [0x41, 0x23, 0x45, 0x67, 0x89, 0xAB], kind: .leRandom)
        let (favorites, live, identities) = await favoriteBand(id)
        let replay = DeviceDetailViewModel(id: id, favorites: favorites, live: live, sightings: nil, identities: identities,
                                           pairing: Pairing(pairer: UnavailablePairer(reason: "A replayed capture cannot pair with devices."), mover: nil))
        XCTAssertEqual(replay.properties.addressNote,
                       "This address changes every few minutes. To recognise the device when it changes, set its key below.")
        let radio = DeviceDetailViewModel(id: id, favorites: favorites, live: live, sightings: nil, identities: identities,
                                          pairing: Pairing(pairer: FakePairer(), mover: nil))
        XCTAssertEqual(radio.properties.addressNote,
                       "This address changes every few minutes. To recognise the device when it changes, pair with it, or set its key below.")
    }

    func testADevicePairedHereOffersNoKeyOfItsOwnSinceForgetRemovesIt() async throws {
        let id = DeviceID(octets: [0x70, 0x23, 0x45, 0x67, 0x89, 0xAB], kind: .leRandom)
        let (favorites, live, identities) = await favoriteBand(id)
        let detail = DeviceDetailViewModel(id: id, favorites: favorites, live: live, sightings: nil, identities: identities)
        XCTAssertTrue(detail.canHoldKey, "a favorite on a private address may get a key typed in")
        try await identities.keep(Bond(identity: id, irk: IdentityResolvingKey(bytes: Array(0..<16)), ltk: Array(16..<32),
                                       authenticated: true, secureConnections: true, createdAt: Date()))
        XCTAssertTrue(detail.hasKey)
        XCTAssertFalse(detail.canHoldKey, "paired here: the key is the pairing's, and Forget is the one way to remove it")
    }

    func testAFavoriteOnAFixedAddressOffersNoKeyToRecogniseIt() async throws {
        // A thermometer's static random address: nothing changes, so no Identity Resolving Key
        // stands beside the sensor's own Key….
        let id = DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x6A, 0x3E, 0x01], kind: .leRandom)
        let (favorites, live, identities) = await favoriteBand(id)
        let detail = DeviceDetailViewModel(id: id, favorites: favorites, live: live, sightings: nil, identities: identities)
        XCTAssertFalse(detail.canHoldKey)
    }
}
