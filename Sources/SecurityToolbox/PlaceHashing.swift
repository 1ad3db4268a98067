// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Crypto
import Foundation

/// Turns a network's description into an opaque place: SHA-256 over a per-install salt and
/// the description, so the database holds no network name and no two installs share a place.
public struct PlaceHashing: Sendable {
    private let salt: [UInt8]

    public init(salt: [UInt8]) {
        self.salt = salt
    }

    /// The salt kept at `path`, made (32 random bytes, readable by the user alone) when missing.
    public static func salt(at path: String) -> [UInt8] {
        if let data = FileManager.default.contents(atPath: path), data.count == 32 { return Array(data) }
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(fresh), attributes: [.posixPermissions: 0o600])
        return fresh
    }

    /// The place for `description`: 32 hex digits.
    public func hash(_ description: String) -> String {
        var hasher = SHA256()
        hasher.update(data: salt)
        hasher.update(data: Array(description.utf8))
        return hasher.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
