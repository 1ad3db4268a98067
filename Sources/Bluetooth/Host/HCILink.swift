// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// One controller that the scanner and the connector share: opened when either first needs
/// it, reset once, and opened afresh after it ended (a serial cable pulled and put back).
///
/// Two hosts on one controller would each reset it and steal each other's answers, so every
/// client of an H4 source goes through the same link.
public final class HCILink: @unchecked Sendable {
    private let open: @Sendable () throws(ScanFailure) -> HCITransport
    private let record: PacketRecorder?
    private let resetController: Bool
    private let log: @Sendable (String) -> Void
    /// Held while opening, so two clients asking at once share one host.
    private let lock = NSLock()
    private var current: HCIHost?
    /// One scan session at a time: a stopped scan turns scanning off as it ends, which must
    /// reach the controller before the next scan turns it on, or the next scan hears nothing.
    private let scanGate = NSCondition()
    private var scanning = false
    /// FavBlue's own attribute database, which every link on this controller answers from.
    public let attributes: LocalAttributes

    /// Creates a link that opens its transport with `open`; `record` hears every packet.
    public init(open: @escaping @Sendable () throws(ScanFailure) -> HCITransport, record: PacketRecorder? = nil,
                resetController: Bool = true, attributes: LocalAttributes = LocalAttributes(),
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.open = open
        self.attributes = attributes
        self.record = record
        self.resetController = resetController
        self.log = log
    }

    deinit { current?.close() }

    /// The running host, opening and resetting the controller when there is none or the last one ended.
    public func host() throws(ScanFailure) -> HCIHost {
        lock.lock()
        defer { lock.unlock() }
        if let current, current.endReason == nil { return current }
        current = nil
        let host = HCIHost(transport: try open(), record: record, log: log)
        host.start()
        if resetController {
            do {
                _ = try host.command(.reset)
            } catch {
                host.close()
                throw error
            }
        }
        current = host
        return host
    }

    /// Waits until the scan session before has ended, then holds the controller's scanning for
    /// the caller; called on the scanner's own thread.
    func beginScanSession() {
        scanGate.lock()
        while scanning { scanGate.wait() }
        scanning = true
        scanGate.unlock()
    }

    /// Lets the next scan session begin.
    func endScanSession() {
        scanGate.lock()
        scanning = false
        scanGate.signal()
        scanGate.unlock()
    }

    /// Ends the link, if it is open; the next `host()` opens it again.
    public func close() {
        let host = lock.withLock { () -> HCIHost? in
            defer { current = nil }
            return current
        }
        host?.close()
    }
}
