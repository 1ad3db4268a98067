// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import PackagePlugin

/// Turns the name tables of data/ (services, characteristics, descriptors) into Swift
/// dictionaries, so the tables stay data a person can edit and the binary needs no file at run time.
@main
struct ServiceNameTable: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let program = context.package.directoryURL.appending(path: "Plugins/ServiceNameTable/table.awk")
        return ["service", "characteristic", "descriptor"].map { kind in
            let input = context.package.directoryURL.appending(path: "data/\(kind)-uuids.txt")
            let output = context.pluginWorkDirectoryURL.appending(path: "\(kind.prefix(1).uppercased() + kind.dropFirst())NameTable.swift")
            return .buildCommand(displayName: "\(kind) name table",
                                 executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: ["-c", "awk -v kind=\"$3\" -f \"$0\" \"$1\" > \"$2\"", program.path, input.path, output.path, kind],
                                 inputFiles: [input, program], outputFiles: [output])
        }
    }
}
