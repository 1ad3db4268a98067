// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Saves an exported file off the main thread. The bytes go to a temporary file next to the
/// target, which then replaces it, so a failed write (a full disk) leaves the old file whole.
public enum ExportFile {
    /// Why a file could not be saved, with what to do about it.
    public struct Failure: Error, Equatable, Sendable {
        /// The file.
        public let path: String
        /// What the system said.
        public let reason: String

        /// What happened, in plain words.
        public var message: String {
            L10n.format("“{}” could not be saved: {}.", (path as NSString).lastPathComponent, reason)
        }

        /// What to do next.
        public var suggestion: String {
            L10n.tr("Choose a folder you can write to, with free space, and export again. Nothing was lost; the list is unchanged.")
        }
    }

    /// Writes `data` to `path` on a background thread.
    public static func save(_ data: Data, to path: String) async throws(Failure) {
        let result: Result<Void, Failure> = await Task.detached(priority: .userInitiated) {
            Result { () throws(Failure) in try write(data, to: path) }
        }.value
        try result.get()
    }

    /// The whole write, on the calling thread.
    static func write(_ data: Data, to path: String) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(path: path, reason: L10n.tr("the folder does not exist"))
        }
        let temporary = directory + "/." + url.lastPathComponent + ".part-" + UUID().uuidString.prefix(8)
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o644]) else {
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw Failure(path: path, reason: reason(error))
        }
        // rename(2) replaces the target in one step.
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw Failure(path: path, reason: why)
        }
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}
