// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import PackagePlugin

/// Lists the sensor families from their own files: every `enum Name: SensorFamily` in
/// Sources/Domain/Sensors becomes an entry of `SensorDecoders.listed`, so a new family is its
/// file and its test, with no list to remember.
@main
struct SensorFamilyList: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let program = context.package.directoryURL.appending(path: "Plugins/SensorFamilyList/list.awk")
        let folder = context.package.directoryURL.appending(path: "Sources/Domain/Sensors")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "SensorFamilyList.swift")
        return [.buildCommand(displayName: "sensor family list",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", "out=\"$1\"; shift; awk -f \"$0\" \"$@\" > \"$out\"", program.path, output.path]
                                  + files.map(\.path),
                              inputFiles: [program] + files, outputFiles: [output])]
    }
}
