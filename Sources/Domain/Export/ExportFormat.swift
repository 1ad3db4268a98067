// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The file formats devices are exported in, chosen by the file name's extension.
public enum ExportFormat: String, CaseIterable, Sendable {
    case csv, json

    /// The extension, without the dot.
    public var fileExtension: String { rawValue }

    /// The format a path's extension names (case-insensitive), or nil for any other extension.
    public init?(path: String) {
        let ext = (path as NSString).pathExtension.lowercased()
        self.init(rawValue: ext)
    }

    /// Where to write and in which format: the extension decides; a name without any extension
    /// gets `fallback`'s, so "devices" becomes "devices.csv". Another extension keeps the name as
    /// typed and is written as `fallback`.
    public static func resolve(path: String, fallback: ExportFormat) -> (path: String, format: ExportFormat, extended: Bool) {
        if let format = ExportFormat(path: path) { return (path, format, false) }
        let name = (path as NSString).lastPathComponent
        if (name as NSString).pathExtension.isEmpty {
            return (path + "." + fallback.fileExtension, fallback, true)
        }
        return (path, fallback, false)
    }
}
