// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Export… and Import…: FavBlue's own file of what is set up.
extension PeripheralRole {
    /// FavBlue's file of everything set up.
    public var file: PeripheralFile {
        PeripheralFile(advertisements: advertisements, server: server, on: on.intersection(advertisements.map(\.id)))
    }

    /// Adds a file's advertisements, and takes its server in place of the one set up. A file with a
    /// problem says it with its line and brings nothing. Whoever calls it asks the user first
    /// where `replaced(by:)` says a server would go.
    public func importFile(_ text: String) throws(JSONFileProblem) {
        take(try PeripheralFile.read(text))
    }
}
