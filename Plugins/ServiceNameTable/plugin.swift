// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import PackagePlugin

/// Turns data/service-uuids.txt into a Swift dictionary, so the table stays data
/// a person can edit and the binary needs no file at run time.
@main
struct ServiceNameTable: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "data/service-uuids.txt")
        let output = context.pluginWorkDirectoryURL.appending(path: "ServiceNameTable.swift")
        let program = context.package.directoryURL.appending(path: "Plugins/ServiceNameTable/table.awk")
        return [.buildCommand(displayName: "service name table",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", "awk -f \"$0\" \"$1\" > \"$2\"", program.path, input.path, output.path],
                              inputFiles: [input, program], outputFiles: [output])]
    }
}
