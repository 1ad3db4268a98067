// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import GtkKit
import Localization
import Views

/// The command line: what it offers, and what the launching process makes of it.
extension FavBlueApp {
    /// The command line's options, as `favblue --help` lists them.
    static func declareOptions(on application: Application) {
        application.setOptionSummary(L10n.tr("Find the Bluetooth devices around you and keep your favorites."))
        // A string, not an integer option: GApplication drops integer options equal to 0.
        application.addOption("splash-ms", argument: .string,
                              description: L10n.tr("Show the splash screen for MS milliseconds (0 turns it off)"),
                              placeholder: L10n.tr("MS"))
        application.addOption("storage", argument: .string,
                              description: L10n.tr("Keep favorites in “sqlite” (a file) or “memory” (forgotten on quit)"),
                              placeholder: L10n.tr("BACKEND"))
        application.addOption("source", argument: .strings,
                              description: L10n.tr("Scan from SOURCE: auto, bluez, bluez:hci1, hci0, h4-unix:PATH, h4-tcp:HOST:PORT, h4-serial:DEV[@BAUD], btsnoop:PATH, demo or mqtt[s]://[USER@]HOST[:PORT]/PREFIX; again for more sources, NAME=SOURCE to name one"),
                              placeholder: L10n.tr("SOURCE"))
        application.addOption("version", argument: .flag,
                              description: L10n.tr("Print the version and exit"), placeholder: nil)
        application.addOption("verbose", argument: .flag,
                              description: L10n.tr("Say on standard error how FavBlue starts and what the radio does"), placeholder: nil)
    }

    /// Whether `--verbose` was given: the radio's and the routes' own lines go to standard error
    /// only then. What the user must know is said in the window.
    nonisolated static let verbose = CommandLine.arguments.contains("--verbose")

    /// The routes' log: silent unless `--verbose`.
    static let log: @Sendable (String) -> Void = { message in
        guard verbose else { return }
        FileHandle.standardError.write(Data("favblue: \(message)\n".utf8))
    }

    /// Validates the options in the launching process; returns an exit status to stop.
    func handle(_ options: OptionValues) -> Int32? {
        if options.flag("version") {
            print("favblue \(AppInfo.version)")
            return 0
        }
        if let text = options.string("splash-ms") {
            guard let ms = Int(text), ms >= 0 else {
                printError(L10n.tr("--splash-ms needs a number of milliseconds, 0 or more."))
                return 2
            }
            splashOverride = ms
        }
        if let storage = options.string("storage") {
            guard storage == "sqlite" || storage == "memory" else {
                printError(L10n.format("Unknown storage “{}”: use “sqlite” or “memory”.", storage))
                return 2
            }
            storageOverride = storage
        }
        sourceOverride = options.strings("source")
        if options.flag("verbose") && !Self.hasSessionBus {
            printError(L10n.tr("No session bus: FavBlue runs as an instance of its own and does not start one."))
        }
        // Started here, before the session bus and GTK's start, so the store opens beside both.
        // Whether this launch is the first is known only later (`onRegistered`).
        loadSettings()
        startOpeningStore()
        return nil
    }

    func loadSettings() {
        guard settings == nil else { return }
        settings = Settings(schemaID: AppInfo.id, extraDirectories: resources.schemaDirectories)
    }
}
