// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import HomeServices
import GtkKit
import Localization
import SecurityToolbox
import ViewModels
import Views

/// The process's start: the same for favblue and for the benchmarks' build of it.
public enum AppMain {
    /// Sets the process up, hands the app to `configure`, and runs it; returns its exit status.
    public static func run(_ configure: @MainActor (FavBlueApp) -> Void = { _ in }) -> Int32 {
        // Before anything else: it may start the process again with GLib's slices on malloc.
        SliceAllocator.useMallocOnOlderGLib()
        // Top-level code runs on the main thread, which GTK owns from here on.
        return MainActor.assumeIsolated { () -> Int32 in
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
            Brokers.install()
            if let gresource = resources.gresource, !Style.registerResources(at: gresource) {
                FileHandle.standardError.write(Data("favblue: could not load \(gresource); styling and icons are missing\n".utf8))
            }
            StartupTrace.mark("resources")
            let app = FavBlueApp(resources: resources)
            configure(app)
            return app.run(arguments: CommandLine.arguments)
        }
    }
}
