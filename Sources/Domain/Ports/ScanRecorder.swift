// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Writes what the scanner hears to a capture file, from when `start` is called until `stop`.
/// The Bluetooth adapter writes btsnoop, the same file `favblue-scan --record` writes.
public protocol ScanRecorder: AnyObject, Sendable {
    /// Creates (or replaces) the capture at `path` and records into it from now on.
    func start(path: String) throws(RecordingError)
    /// Closes the capture; nothing happens when none is open.
    func stop()
    /// Why the open capture could not be written further (a full disk), once; it is closed then.
    func takeFailure() -> RecordingError?
}

/// Why a recording could not be made or went on no further.
public struct RecordingError: Error, Equatable, Sendable {
    /// The file.
    public let path: String
    /// What the system said ("No space left on device").
    public let reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// What happened and what to do, in plain words.
    public var message: String {
        L10n.format("The recording “{}” could not be written: {}. Choose a folder you can write to with free space, and record again.",
                    path, reason)
    }
}
