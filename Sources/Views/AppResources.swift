// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit

/// Where the compiled resources, the GSettings schema and the translations are.
///
/// An installed FavBlue finds them under its prefix (`<prefix>/bin/favblue` →
/// `<prefix>/share/…`); a development build finds the files the build plugin
/// wrote into the resource bundle next to the binary.
public struct AppResources: Sendable {
    /// The compiled GResource file (CSS, icons, shortcuts window).
    public let gresource: String?
    /// Directories holding a compiled schema for FavBlue, searched before the system ones.
    public let schemaDirectories: [String]
    /// A gettext locale directory (`<dir>/<lang>/LC_MESSAGES/favblue.mo`).
    public let localeDirectory: String?

    /// The running executable's folder.
    private static var binDirectory: URL {
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                             ?? CommandLine.arguments[0])
        return executable.deletingLastPathComponent()
    }

    /// The guide for Yelp: `help:favblue` where it is installed where Yelp looks (the data
    /// folders, or this program's own prefix); in a build tree, the guide in the source tree, as a
    /// `ghelp:` folder Yelp reads as it is; nil where neither is there.
    public static func guideURI(languages: [String]) -> String? {
        let home = UserDirectories.data(Self.variable)
        let dirs = (getenv("XDG_DATA_DIRS").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        let langs = languages + ["C"]
        func guide(under share: String) -> String? {
            langs.lazy.map { "\(share)/help/\($0)/favblue" }.first { FileManager.default.fileExists(atPath: "\($0)/index.page") }
        }
        if ([home] + dirs).contains(where: { guide(under: $0) != nil }) { return "help:favblue" }
        // Installed under a prefix Yelp does not search (a --prefix of one's own): that folder.
        if let own = guide(under: binDirectory.deletingLastPathComponent().appending(path: "share").path) { return "ghelp:" + own }
        // A build tree: the program sits under .build/<configuration>, the guide beside Sources.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "help").path
        return langs.lazy.map { "\(source)/\($0)" }.first { FileManager.default.fileExists(atPath: "\($0)/index.page") }
            .map { "ghelp:" + $0 }
    }

    /// The guide built as HTML (`<prefix>/share/favblue/help/<lang>/index.html`), in the first of
    /// `languages` it is written in, else the original; nil where it is not installed (a
    /// development build).
    public static func guideHTML(languages: [String]) -> String? {
        let help = binDirectory.deletingLastPathComponent().appending(path: "share/favblue/help").path
        return (languages + ["C"]).lazy.map { "\(help)/\($0)/index.html" }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Locates everything relative to the running executable.
    /// One environment variable, read without building the whole environment (start-up's path).
    static func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    public static func locate() -> AppResources {
        let fm = FileManager.default
        let binDirectory = Self.binDirectory
        let share = binDirectory.deletingLastPathComponent().appending(path: "share")

        let installed = share.appending(path: "favblue/favblue.gresource").path
        if fm.fileExists(atPath: installed) {
            return AppResources(gresource: installed,
                                schemaDirectories: [share.appending(path: "glib-2.0/schemas").path,
                                                    share.appending(path: "favblue/schemas").path],
                                localeDirectory: share.appending(path: "locale").path)
        }

        // getenv: ProcessInfo would build the whole environment as a dictionary, on start-up's path.
        let override = getenv("FAVBLUE_RESOURCES").map { String(cString: $0) }
        let bundle = override ?? binDirectory.appending(path: "FavBlue_Views.resources").path
        let gresource = bundle + "/favblue.gresource"
        let cacheHome = UserDirectories.cache(Self.variable)
        return AppResources(gresource: fm.fileExists(atPath: gresource) ? gresource : nil,
                            schemaDirectories: [bundle],
                            localeDirectory: materializeCatalogs(from: bundle, into: cacheHome + "/favblue/locale"))
    }

    /// The build flattens resources into one folder as `favblue-<lang>.mo`; gettext wants
    /// `<lang>/LC_MESSAGES/favblue.mo`, so lay them out under `root` (in the user's cache)
    /// once per change. Returns `root`, or nil when they cannot be laid out.
    static func materializeCatalogs(from bundle: String, into root: String) -> String? {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: bundle) else { return nil }
        for name in names where name.hasPrefix("favblue-") && name.hasSuffix(".mo") {
            let lang = String(name.dropFirst("favblue-".count).dropLast(".mo".count))
            let directory = "\(root)/\(lang)/LC_MESSAGES"
            let source = bundle + "/" + name
            let target = directory + "/favblue.mo"
            if let catalog = try? Data(contentsOf: URL(fileURLWithPath: source)),
               (try? Data(contentsOf: URL(fileURLWithPath: target))) != catalog {
                do {
                    try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    try catalog.write(to: URL(fileURLWithPath: target), options: .atomic)
                } catch {
                    FileHandle.standardError.write(Data("favblue: translations unavailable: \(error)\n".utf8))
                    return nil
                }
            }
        }
        return root
    }
}
