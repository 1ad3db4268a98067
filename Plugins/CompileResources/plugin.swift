// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import PackagePlugin

/// Compiles po/*.po with msgfmt and data/favblue.gresource.xml with
/// glib-compile-resources, so no binary artefact is ever committed.
@main
struct CompileResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let out = context.pluginWorkDirectoryURL
        var commands: [Command] = []

        // Resources are flattened into one bundle folder, so each language's
        // catalogue gets its own file name; L10n lays them out for gettext at run time.
        let po = root.appending(path: "po")
        let linguas = (try? String(contentsOf: po.appending(path: "LINGUAS"), encoding: .utf8)) ?? ""
        for lang in linguas.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) })
        where !lang.isEmpty && !lang.hasPrefix("#") {
            let input = po.appending(path: "\(lang).po")
            let output = out.appending(path: "favblue-\(lang).mo")
            commands.append(.buildCommand(
                displayName: "msgfmt \(lang).po",
                executable: URL(fileURLWithPath: "/usr/bin/msgfmt"),
                arguments: ["--check", "-o", output.path, input.path],
                inputFiles: [input],
                outputFiles: [output]))
        }

        let data = root.appending(path: "data")
        let manifest = data.appending(path: "favblue.gresource.xml")
        let gresource = out.appending(path: "favblue.gresource")
        let listed = try FileManager.default.subpathsOfDirectory(atPath: data.path)
            .filter { $0.hasSuffix(".css") || $0.hasSuffix(".svg") || $0.hasSuffix(".ui") || $0.hasSuffix(".txt") }
            .map { data.appending(path: $0) }

        // The symbolic icons of data/icons (the hearts, the Scanner's "Looking for devices" and its
        // spinner) as symbolic PNGs, which GTK draws without loading the SVG renderer.
        let icons = data.appending(path: "icons")
        let symbolic = try FileManager.default.contentsOfDirectory(atPath: icons.path)
            .filter { $0.hasSuffix("-symbolic.svg") }.sorted().map { icons.appending(path: $0) }
        let encoded = symbolic.flatMap { svg in
            [16, 32, 128, 256].map { out.appending(path: "\(svg.deletingPathExtension().lastPathComponent)-\($0).symbolic.png") }
        }
        let encoder = root.appending(path: "meson-helpers/encode-symbolic-icons.sh")
        commands.append(.buildCommand(
            displayName: "encode symbolic icons",
            executable: URL(fileURLWithPath: "/bin/bash"),
            arguments: [encoder.path, out.path] + symbolic.map(\.path),
            inputFiles: [encoder] + symbolic,
            outputFiles: encoded))

        commands.append(.buildCommand(
            displayName: "glib-compile-resources",
            executable: URL(fileURLWithPath: "/usr/bin/glib-compile-resources"),
            arguments: ["--sourcedir", data.path, "--sourcedir", out.path, "--target", gresource.path, manifest.path],
            inputFiles: [manifest] + listed + encoded,
            outputFiles: [gresource]))

        // The compiled schema lets a development build run without installing it.
        let schema = data.appending(path: "io.github.favblue.FavBlue.gschema.xml")
        commands.append(.buildCommand(
            displayName: "glib-compile-schemas",
            executable: URL(fileURLWithPath: "/usr/bin/glib-compile-schemas"),
            arguments: ["--strict", "--targetdir", out.path, data.path],
            inputFiles: [schema],
            outputFiles: [out.appending(path: "gschemas.compiled")]))
        return commands
    }
}
