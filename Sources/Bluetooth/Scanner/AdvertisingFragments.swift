// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Joins the pieces of an extended advertisement that did not fit one HCI event: the
/// controller sends them as reports whose data status says "incomplete, more to come", then
/// a last one that is complete (or "truncated", when the rest was lost) (Core v5.4, Vol 4,
/// Part E, §7.7.65.13). A long name, up to 248 bytes, arrives this way.
public struct AdvertisingFragments: Sendable {
    private struct Key: Hashable, Sendable {
        let address: [UInt8]
        let addressType: UInt8
    }

    private var pending: [Key: [UInt8]] = [:]
    /// Advertising data is at most 1,650 bytes (Vol 6, Part B, §2.3.4.9); beyond that a
    /// device is not following the rules, and its pieces are dropped.
    static let maxLength = 1650
    /// Devices mid-advertisement at once; a room that leaves more unfinished is not kept.
    static let maxPending = 256

    public init() {}

    /// Whether no piece waits for its end.
    public var isEmpty: Bool { pending.isEmpty }

    /// Whether pieces from `address` wait for their end.
    public func isPending(address: ArraySlice<UInt8>, addressType: UInt8) -> Bool {
        !pending.isEmpty && pending[Key(address: Array(address), addressType: addressType)] != nil
    }

    /// The whole report once `report` completes it; nil while more is to come. A truncated
    /// advertisement is handed on with what arrived, so its parser can say it broke off.
    public mutating func join(_ report: AdvertisingReport) -> AdvertisingReport? {
        let key = Key(address: report.address, addressType: report.addressType)
        if report.eventType.dataStatus == 1 {
            let sofar = (pending[key] ?? []) + report.data
            if sofar.count > Self.maxLength {
                pending[key] = nil
            } else {
                if pending[key] == nil, pending.count >= Self.maxPending { pending.removeAll() }
                pending[key] = sofar
            }
            return nil
        }
        guard let head = pending.removeValue(forKey: key) else { return report }
        return AdvertisingReport(eventType: report.eventType, addressType: report.addressType, address: report.address,
                                 rssi: report.rssi, txPower: report.txPower, data: head + report.data)
    }

    /// `event` with its advertising reports joined; reports still waiting for more are left out.
    public mutating func join(_ event: HCIEvent) -> HCIEvent {
        guard case .leAdvertisingReports(let reports) = event else { return event }
        return .leAdvertisingReports(reports.compactMap { join($0) })
    }
}
