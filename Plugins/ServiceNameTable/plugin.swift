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
        let script = """
            awk 'BEGIN { print "// Generated from data/service-uuids.txt; do not edit."; \
            print "let serviceNameTable: [UInt16: String] = [" } \
            /^[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f] / { name = substr($0, 6); gsub(/\\\\/, "\\\\\\\\", name); gsub(/"/, "\\\\\\"", name); \
            printf "    0x%s: \\"%s\\",\\n", $1, name } \
            END { print "]" }' "$1" > "$2"
            """
        return [.buildCommand(displayName: "service name table",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "sh", input.path, output.path],
                              inputFiles: [input], outputFiles: [output])]
    }
}
