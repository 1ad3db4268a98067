// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # FavBlue (executable `favblue`)
//
// The program users install: favblue, and favblue-scan under a second name. The
// composition root (resources, translations, settings and options, the store, the
// Bluetooth source, the view models and views) is AppShell's; the benchmarks build
// the same app with their drivers added (Benchmarks/AppBench, favblue-bench).

import AppShell
import Foundation
import ScanCommand

// Installed, favblue-scan is this program under a second name: the runtime is on disk once.
// The name split by hand: URL(fileURLWithPath:) would stat the path at every start of the app.
if CommandLine.arguments.first?.split(separator: "/").last == "favblue-scan" {
    Task {
        await ScanProgram.main(Array(CommandLine.arguments.dropFirst()))
        exit(0)
    }
    dispatchMain()
}

exit(AppMain.run())
