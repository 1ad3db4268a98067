// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # FavBlue (executable `favblue`)
//
// The composition root: the one place that names concrete types. It finds the
// resources, binds translations, reads settings and options, opens the store,
// picks the Bluetooth source, and hands protocols to the view models and views.
//
//     main.swift         process set-up, then GApplication
//     FavBlueApp.swift   options, settings, window and page wiring

import Domain
import Foundation
import GtkKit
import Localization
import ScanCommand
import SecurityToolbox
import Views

// Installed, favblue-scan is this program under a second name: the runtime is on disk once.
// The name split by hand: URL(fileURLWithPath:) would stat the path at every start of the app.
if CommandLine.arguments.first?.split(separator: "/").last == "favblue-scan" {
    Task {
        await ScanProgram.main(Array(CommandLine.arguments.dropFirst()))
        exit(0)
    }
    dispatchMain()
}

// Before anything else: it may start the process again with GLib's slices on malloc.
SliceAllocator.useMallocOnOlderGLib()

// Top-level code runs on the main thread, which GTK owns from here on.
let status = MainActor.assumeIsolated { () -> Int32 in
    StartupTrace.mark("main")
    // Before GLib looks for a session bus: where there is none, it starts none (see SessionBus).
    if !FavBlueApp.hasSessionBus { SessionBus.disableAutolaunch() }
    ExecutablePreload.start()
    // libdispatch's main queue must be drained by GLib before anything is queued on it.
    MainLoop.install()
    let resources = AppResources.locate()
    L10n.bind(localeDirectory: resources.localeDirectory)
    StartupTrace.mark("translations")
    SensorCiphers.install(SensorAESBlock())
    if let gresource = resources.gresource, !Style.registerResources(at: gresource) {
        FileHandle.standardError.write(Data("favblue: could not load \(gresource); styling and icons are missing\n".utf8))
    }
    StartupTrace.mark("resources")
    let app = FavBlueApp(resources: resources)
    return app.run(arguments: CommandLine.arguments)
}
exit(status)
