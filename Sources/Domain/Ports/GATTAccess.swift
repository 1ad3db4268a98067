// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Why a GATT operation on the connected device did not happen, in words for the row it concerns.
public enum GATTError: Error, Equatable, Sendable {
    /// No device is connected (any more).
    case notConnected
    /// The device answered with an ATT error; `message` says it in words, `wantsPairing`
    /// when pairing is the way past it (Insufficient Authentication or Encryption).
    case device(message: String, wantsPairing: Bool)
    /// The device did not answer in time.
    case timedOut
    /// The connection ended during the operation.
    case connectionLost
    /// The attribute is not there any more: the device's services changed.
    case vanished
    /// Refused here before anything was sent, with the reason.
    case refused(String)
    /// This route cannot do it, with the reason.
    case unsupported(String)

    /// One sentence for the row.
    public var message: String {
        switch self {
        case .notConnected: return L10n.tr("Not connected to the device.")
        case .device(let message, _): return message
        case .timedOut: return L10n.tr("The device did not answer in time.")
        case .connectionLost: return L10n.tr("The connection ended before the device answered.")
        case .vanished: return L10n.tr("This attribute is gone: the device’s services changed. Connect again to see them.")
        case .refused(let why), .unsupported(let why): return why
        }
    }

    /// Whether pairing is the way past it.
    public var wantsPairing: Bool {
        if case .device(_, true) = self { return true }
        return false
    }
}

/// The GATT browser's view of the connected device: its whole tree, and reads and writes by
/// handle. Part of `DeviceConnector`; both routes implement it, so the page cannot tell them apart.
public protocol GATTAccess: AnyObject, Sendable {
    /// Every primary service of the connected device, with its includes, characteristics and descriptors.
    func discoverServices() async throws(GATTError) -> [GATTService]
    /// The whole value at `handle` (a characteristic's value or a descriptor), up to 512 bytes.
    func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8]
    /// The whole values at `handles`, read one after another, each with its own outcome; once
    /// the connection ends, the rest fail as it did.
    func readValues(at handles: [UInt16]) async -> [Result<[UInt8], GATTError>]
    /// Writes `value` at `handle`: acknowledged (a long write where it must be), or as a command.
    func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError)
    /// Starts (or stops) the notifications, or the indications, of the characteristic whose value is
    /// at `handle`, through its Client Characteristic Configuration descriptor at `cccd`. What
    /// arrives comes as `ConnectionEvent.notified`; indications are confirmed.
    func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError)
    /// The most bytes one write without response carries on this link (ATT_MTU − 3).
    func writeCommandLimit() async -> Int
}

extension GATTAccess {
    public func discoverServices() async throws(GATTError) -> [GATTService] { throw .unsupported(Self.noBrowsing) }
    public func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8] { throw .unsupported(Self.noBrowsing) }
    public func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError) {
        throw .unsupported(Self.noBrowsing)
    }

    public func readValues(at handles: [UInt16]) async -> [Result<[UInt8], GATTError>] {
        var results: [Result<[UInt8], GATTError>] = []
        for handle in handles {
            do { results.append(.success(try await readValue(at: handle))) } catch { results.append(.failure(error)) }
        }
        return results
    }

    public func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError) {
        throw .unsupported(Self.noBrowsing)
    }

    /// The Core's smallest, where the route does not say (ATT_MTU 23 − 3).
    public func writeCommandLimit() async -> Int { 20 }

    private static var noBrowsing: String { L10n.tr("This source cannot browse a device’s services.") }
}
