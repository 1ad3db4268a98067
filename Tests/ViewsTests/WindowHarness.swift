// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import TestSupport
import ViewModels
import Views
import XCTest

/// Runs the real application window under Xvfb and lets a test drive it.
@MainActor
enum WindowHarness {
    nonisolated(unsafe) static var initialized = false
    nonisolated(unsafe) static var counter = 0

    /// Starts GTK once, with our resources and translations.
    static func setUp() {
        guard !initialized else { return }
        initialized = true
        MainLoop.install()
        let resources = AppResources.locate()
        L10n.bind(localeDirectory: resources.localeDirectory)
        if let gresource = resources.gresource { _ = Style.registerResources(at: gresource) }
    }

    /// Opens a MainWindow with `splashMs`, runs `body`, and returns once it has finished
    /// (or after `timeout` seconds, failing the test).
    static func run(splashMs: Int, timeout: Double = 20, favorites: Favorites? = nil,
                    sightings: SightingsRepository? = nil, scanner: FakeScanner? = nil,
                    chats: ChatSessions? = nil, pairing: Pairing? = nil,
                    file: StaticString = #filePath, line: UInt = #line,
                    _ body: @escaping @MainActor (MainWindow) async throws -> Void) {
        setUp()
        counter += 1
        let app = Application(id: "io.github.favblue.Tests.Window\(getpid())n\(counter)")
        var window: MainWindow?
        var finished = false
        app.onStartup { MainWindow.installAccelerators(on: app) }
        let favoritesOwner = favorites ?? Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()))
        let favoritesModel = FavoritesViewModel(favorites: favoritesOwner)
        let live = LiveDevices(makeScanner: { _ in scanner ?? FakeScanner() }, sightings: nil)
        let hiddenDevices = HiddenDevices(repository: FakeHiddenDevicesRepository(), favorites: favoritesOwner)
        let hidden = HiddenDevicesViewModel(devices: hiddenDevices)
        let scannerModel = ScannerViewModel(live: live, policy: ScanPolicy(live: live), favorites: favoritesOwner, hidden: hiddenDevices)
        app.onActivate {
            let main = MainWindow(application: app, settings: nil, splash: SplashViewModel(durationMs: splashMs),
                                  pages: PageFactory(
                                      favorites: { FavoritesPage(navigator: $0, model: favoritesModel) },
                                      scanner: { ScannerPage(navigator: $0, model: scannerModel, favorites: favoritesModel, hidden: hidden, tryDemo: nil) },
                                      detail: { navigator, id in DeviceDetailPage(navigator: navigator, model: DeviceDetailViewModel(
                                          id: id, favorites: favoritesOwner, live: live, sightings: sightings), favorites: favoritesModel,
                                          connection: chats.map(ConnectionViewModel.init),
                                          pairing: pairing.map { DevicePairingViewModel(device: id, pairing: $0, name: { $0.address }) }) },
                                      chat: chats.map { sessions in { ChatPage(navigator: $0, model: ChatViewModel(device: $1, sessions: sessions)) } }))
            window = main
            main.present()
            Task { @MainActor in
                do { try await body(main) } catch { XCTFail("\(error)", file: file, line: line) }
                finished = true
                main.window.destroy()
            }
        }
        let quitter = MainLoop.after(seconds: timeout) { app.quit() }
        _ = app.run(arguments: ["favblue-tests"])
        quitter.cancel()
        XCTAssertTrue(finished, "the window test finished in time", file: file, line: line)
        _ = window
    }

    /// Waits until `condition` holds, letting the main loop run; false after `seconds`.
    static func wait(_ seconds: Double, until condition: @MainActor () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            // A poll that lets GTK's main loop run meanwhile, not a fixed wait.
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return true
    }

    /// Activates a window action as a shortcut or a button would.
    static func activate(_ window: MainWindow, _ action: String) {
        window.window.activateAction(action)
    }
}
