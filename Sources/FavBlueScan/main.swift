// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # FavBlueScan (executable `favblue-scan` in a build tree)
//
// The command lives in ScanCommand, which `favblue` also links: installed, `favblue-scan` is a
// second name of `favblue`, so the Swift runtime is on disk once.

import ScanCommand

await ScanProgram.main(Array(CommandLine.arguments.dropFirst()))
