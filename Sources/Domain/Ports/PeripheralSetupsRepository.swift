// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Where the advertisements and the server the user set up are kept, as FavBlue's own file.
public protocol PeripheralSetupsRepository: Sendable {
    /// What was kept; an empty file when nothing was.
    func load() async throws -> PeripheralFile
    /// Keeps `file` in place of what was kept.
    func save(_ file: PeripheralFile) async throws
}
