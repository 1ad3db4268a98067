// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A recorder that notes what it is asked to do, and can fail as a full disk would.
public final class FakeRecorder: ScanRecorder, @unchecked Sendable {
    private let lock = NSLock()
    private var failure: RecordingError?
    /// The path of the open capture, or nil.
    public private(set) var openPath: String?
    /// Every path recording started at.
    public private(set) var started: [String] = []

    public init() {}

    public func start(path: String) throws(RecordingError) {
        lock.lock(); defer { lock.unlock() }
        openPath = path
        started.append(path)
    }

    public func stop() {
        lock.lock(); openPath = nil; lock.unlock()
    }

    public func takeFailure() -> RecordingError? {
        lock.lock(); defer { lock.unlock() }
        let taken = failure
        failure = nil
        return taken
    }

    /// The open capture can take no more: it closes, and the next fold hears why.
    public func failWrites(reason: String) {
        lock.lock()
        failure = openPath.map { RecordingError(path: $0, reason: reason) }
        openPath = nil
        lock.unlock()
    }
}
