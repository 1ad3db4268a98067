// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import Persistence
import ViewModels

/// The demo, started with `--source demo` or from Try the Demo: its own favorites, hidden
/// devices, names of characteristics and chats, and nothing it hears kept in the user's store.
extension FavBlueApp {
    /// The demo's favorites, in a store of their own that lasts for this session only.
    static func demoFavorites() -> FavoritesUseCases {
        FavoritesUseCases(repository: InMemoryFavoritesRepository(DemoFavorites.all()))
    }

    /// Try the Demo: the demo is the source from now on, for scanning, connecting, pairing and
    /// acting as a device.
    func tryTheDemo(sources: SourcesViewModel) {
        source = .demo
        link = nil
        bus?.close()
        bus = nil
        sessions?.replace(connector: ConnectorFactory.make(.demo, link: nil))
        pairing?.replace(pairer: PairerFactory.make(.demo))
        peripheral?.replace(port: PeripheralFactory.make(.demo, link: nil))
        // Preferences → Sources says what runs now, not what was tried first.
        sources.setPrimary(.demo)
        trackerGuard?.recall(DemoTracker.story(before: Date()))
        // The demo's favorites, and what FavBlue hears of them, stay in memory.
        history?.keepInMemory()
        browser?.keepLabels(in: InMemoryCharacteristicLabelsRepository())
        sessions?.keepChats(in: InMemoryChatRepository())
        Task { [weak self] in
            await self?.favorites?.showDemo(Self.demoFavorites())
            await self?.hidden?.showDemo(InMemoryHiddenDevicesRepository())
        }
        // The demo's kitchen gateway listens from now on, as a broker's gateway would.
        live?.listen()
        scanner?.start()
    }
}
