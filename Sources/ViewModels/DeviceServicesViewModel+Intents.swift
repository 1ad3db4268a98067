// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the page asks of the browser: read, write, follow and name characteristics.
extension DeviceServicesViewModel {
    // MARK: Writing

    /// The formats a value can be typed in, in the order the page offers them.
    public static let writeFormats: [ValueInputFormat] = [.text, .hex] + [1, 2, 4, 8].flatMap { bytes -> [ValueInputFormat] in
        let orders = bytes == 1 ? [false] : [false, true]
        return [false, true].flatMap { signed in orders.map { ValueInputFormat.number(bytes: bytes, signed: signed, bigEndian: $0) } }
    }

    /// The formats' names, for the drop-down.
    public static var writeFormatNames: [String] {
        writeFormats.map { format in
            switch format {
            case .text: return L10n.tr("Text (UTF-8)")
            case .hex: return L10n.tr("Hex")
            case .number(let bytes, let signed, let bigEndian):
                // The GATT Specification Supplement's names (uint16, sint32): short enough for a phone-wide page.
                let type = (signed ? "sint" : "uint") + String(bytes * 8)
                if bytes == 1 { return type }
                return bigEndian ? L10n.format("{}, big-endian", type) : L10n.format("{}, little-endian", type)
            }
        }
    }

    // MARK: Intents

    public func read(_ handle: UInt16) { Task { await browser.read(handle) } }
    public func readAll() { Task { await browser.readAll() } }
    public func rediscover() { browser.rediscover() }

    /// Writes what was typed, in the format at `formatIndex`; returns why nothing was sent, else nil.
    public func write(_ typed: String, formatIndex: Int, to handle: UInt16, withResponse: Bool) async -> String? {
        let format = Self.writeFormats[max(0, min(formatIndex, Self.writeFormats.count - 1))]
        return await browser.write(typed, as: format, to: handle, withResponse: withResponse)
    }

    /// The value as text, for Copy Text: its UTF-8 where it is printable, else nil.
    public func copyText(_ handle: UInt16) -> String? {
        guard let bytes = browser.values[handle]?.bytes else { return nil }
        return Self.printable(bytes)
    }

    public func setSubscribed(_ handle: UInt16, _ on: Bool) { Task { await browser.setSubscribed(handle, on) } }
    public func setPaused(_ handle: UInt16, _ on: Bool) { browser.setPaused(handle, on) }
    public func clearLog(_ handle: UInt16) { browser.clearLog(handle) }

    private func entries(_ handle: UInt16) -> [NotificationLogExport.Entry] {
        guard let c = browser.characteristic(at: handle) else { return [] }
        return (browser.logs[handle] ?? []).map { .init(time: $0.time, bytes: $0.bytes, value: decode($0.bytes, of: c).text) }
    }

    /// The whole log as text, one entry a line, for Copy.
    public func logText(_ handle: UInt16) -> String {
        guard let c = browser.characteristic(at: handle) else { return "" }
        return (browser.logs[handle] ?? []).map { line($0, of: c) }.joined(separator: "\n")
    }

    /// The whole log as a file in `format`.
    public func logDocument(_ handle: UInt16, format: ExportFormat) -> Data {
        NotificationLogExport.document(entries(handle), format: format)
    }

    /// How many entries the log of `handle` holds.
    public func logCount(_ handle: UInt16) -> Int { browser.logs[handle]?.count ?? 0 }

    /// A file name for the log of `handle`: "Battery Level 2026-11-26 14-09".
    public func logFileName(_ handle: UInt16) -> String {
        let title = browser.characteristic(at: handle).map {
            Self.name(of: $0, label: browser.labels[$0.uuid.text], description: browser.userDescriptions[handle])
        } ?? ""
        return DeviceText.shown(title).replacingOccurrences(of: "/", with: "-")
    }

    // MARK: Your names

    /// The label the user gave the characteristic at `handle`: its name (empty for none) and its
    /// format as an index into `labelFormatNames` (0: as FavBlue reads it).
    public func label(of handle: UInt16) -> (name: String, formatIndex: Int) {
        guard let c = browser.characteristic(at: handle), let label = browser.labels[c.uuid.text] else { return ("", 0) }
        return (label.name, label.format.flatMap { Self.writeFormats.firstIndex(of: $0) }.map { $0 + 1 } ?? 0)
    }

    /// The choices of how a named characteristic's value reads: as FavBlue reads it, then the write formats.
    public static var labelFormatNames: [String] { [L10n.tr("As FavBlue Reads It")] + writeFormatNames }

    /// Names the characteristic at `handle` (an empty name forgets it) with the format at `formatIndex` of `labelFormatNames`.
    public func setLabel(of handle: UInt16, name: String, formatIndex: Int) {
        guard let c = browser.characteristic(at: handle) else { return }
        let format = formatIndex > 0 && formatIndex <= Self.writeFormats.count ? Self.writeFormats[formatIndex - 1] : nil
        Task { await browser.setLabel(c.uuid.text, name: name, format: format) }
    }

    /// Why the last name could not be kept.
    public var labelProblem: String? { browser.labelProblem }

    /// The value in hex, for Copy as Hex.
    public func copyHex(_ handle: UInt16) -> String? {
        browser.values[handle].map { Hex.spaced($0.bytes) }
    }
}
