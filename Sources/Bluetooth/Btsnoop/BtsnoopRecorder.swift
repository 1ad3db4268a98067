// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Receives every HCI packet a session sends or receives, to write it down.
public protocol PacketRecorder: AnyObject, Sendable {
    /// One packet; `received` is controller → host.
    func write(type: H4PacketType, bytes: [UInt8], received: Bool, at time: Date)
}

extension BtsnoopWriter: PacketRecorder {}

/// A recorder the app can switch on and off while scanners come and go: every scanner is
/// given it for good, and packets reach a file only while one is open. A write that fails
/// (a full disk) closes the file and is reported once through `takeFailure`.
public final class BtsnoopRecorder: ScanRecorder, PacketRecorder, @unchecked Sendable {
    private let lock = NSLock()
    private var writer: BtsnoopWriter?
    private var path = ""
    private var failure: RecordingError?

    /// Records nothing until `start`.
    public init() {}

    public func start(path: String) throws(RecordingError) {
        let writer: BtsnoopWriter
        do {
            writer = try BtsnoopWriter(path: path)
        } catch {
            throw RecordingError(path: path, reason: Self.reason(error, path: path))
        }
        lock.lock()
        let old = self.writer
        self.writer = writer
        self.path = path
        failure = nil
        lock.unlock()
        old?.close()
    }

    public func stop() {
        lock.lock()
        let old = writer
        writer = nil
        lock.unlock()
        old?.close()
    }

    public func takeFailure() -> RecordingError? {
        lock.lock()
        defer { lock.unlock() }
        let taken = failure
        failure = nil
        return taken
    }

    /// Whether a file is open.
    public var isRecording: Bool {
        lock.lock()
        defer { lock.unlock() }
        return writer != nil
    }

    public func write(type: H4PacketType, bytes: [UInt8], received: Bool, at time: Date) {
        lock.lock()
        defer { lock.unlock() }
        guard let writer else { return }
        do {
            try writer.append(type: type, bytes: bytes, received: received, at: time)
        } catch {
            failure = RecordingError(path: path, reason: Self.reason(error, path: path))
            writer.close()
            self.writer = nil
        }
    }

    /// The system's words for a failure ("No space left on device"), not Foundation's wrapper text.
    private static func reason(_ error: Error, path: String) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}
