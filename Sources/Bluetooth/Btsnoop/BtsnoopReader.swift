// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// One HCI packet from a capture, as H4 (indicator + packet).
public struct CapturedPacket: Equatable, Sendable {
    /// The packet type.
    public let type: H4PacketType
    /// True for controller → host.
    public let received: Bool
    /// When it was captured.
    public let timestamp: Date
    /// The packet without its indicator.
    public let bytes: [UInt8]
}

/// A packet as it lies in the reader's buffer: valid only while the visitor that is handed it
/// runs, so a fast replay copies nothing it does not keep.
public struct RawPacket {
    public let type: H4PacketType
    public let received: Bool
    public let timestamp: Date
    /// The packet without its indicator.
    public let bytes: UnsafeRawBufferPointer
}

extension CapturedPacket {
    init(_ raw: RawPacket) {
        self.init(type: raw.type, received: raw.received, timestamp: raw.timestamp, bytes: Array(raw.bytes))
    }
}

/// Why a capture cannot be read.
public enum BtsnoopError: Error, Equatable, Sendable {
    /// The file cannot be opened or read; carries the detail.
    case unreadable(String)
    /// The bytes do not start with the btsnoop header.
    case badMagic
    /// A datalink other than 1001, 1002 and 2001.
    case unknownDatalink(UInt32)
    /// The capture ends inside a record, after this many complete ones.
    case truncated(records: Int)

    /// A sentence for the user.
    public var message: String {
        switch self {
        case .unreadable(let detail): return L10n.format("The capture cannot be read: {}", detail)
        case .badMagic: return L10n.tr("This is not a btsnoop capture (it does not start with “btsnoop”).")
        case .unknownDatalink(let link): return L10n.format("The capture uses datalink {}, which FavBlue cannot read.", link)
        case .truncated(let records): return L10n.format("The capture ends in the middle of a record after {} complete records.", records)
        }
    }
}

/// Reads btsnoop captures: datalinks 1001 (HCI), 1002 (H4) and 2001 (Linux monitor).
/// A file is read in chunks as it is walked, so a capture of any length takes the same
/// memory; a capture given as bytes is walked in place.
public struct BtsnoopReader: Sendable {
    /// The datalink type from the header.
    public let datalink: UInt32
    private let source: Source
    /// Bytes read from a file at a time; a record longer than this grows the buffer to fit it.
    let chunkSize: Int

    private enum Source: Sendable {
        case memory([UInt8])
        case file(CaptureFile)
    }

    /// µs from 0000-01-01 to 1970-01-01, the btsnoop timestamp epoch.
    static let epochOffset: Int64 = 0x00E0_3AB4_4A67_6000 - 946_684_800_000_000
    /// The file header: magic, version, datalink.
    static let headerSize = 16
    /// A record header: original length, included length, flags, drops, timestamp.
    static let recordHeaderSize = 24

    /// Opens a capture file. A regular file is read as it is walked; anything else (a FIFO,
    /// say) is read whole first, since it cannot be read twice.
    public init(path: String) throws(BtsnoopError) {
        try self.init(path: path, chunkSize: 1 << 20)
    }

    /// Opens a capture file, reading `chunkSize` bytes at a time (at least 64; small in tests).
    init(path: String, chunkSize: Int) throws(BtsnoopError) {
        let file: CaptureFile
        switch try CaptureFile.open(path: path) {
        case .file(let opened): file = opened
        case .bytes(let bytes): self = try BtsnoopReader(data: bytes); return
        }
        let header = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.headerSize, alignment: 8)
        defer { header.deallocate() }
        let count = try file.read(into: header, at: 0)
        datalink = try Self.datalink(Array(header[..<count]))
        source = .file(file)
        self.chunkSize = max(chunkSize, 64)
    }

    /// Reads a capture held in memory.
    public init(data: [UInt8]) throws(BtsnoopError) {
        datalink = try Self.datalink(Array(data.prefix(Self.headerSize)))
        source = .memory(data)
        chunkSize = data.count
    }

    /// The datalink of a header, which must be complete, start with the magic and name a datalink we read.
    private static func datalink(_ header: [UInt8]) throws(BtsnoopError) -> UInt32 {
        guard header.count >= headerSize, header.prefix(8).elementsEqual("btsnoop\0".utf8) else { throw .badMagic }
        let link = header.withUnsafeBytes { be32($0, 12) }
        guard [1001, 1002, 2001].contains(link) else { throw .unknownDatalink(link) }
        return link
    }

    /// Every HCI packet in order. A truncated last record ends the list and is reported
    /// in `truncated`, so everything before it is still used.
    public func packets() -> (packets: [CapturedPacket], truncated: BtsnoopError?) {
        var out: [CapturedPacket] = []
        var problem: BtsnoopError?
        forEachPacket({ out.append($0) }, truncated: { problem = $0 })
        return (out, problem)
    }

    /// Calls `body` for each HCI packet without collecting them (for large captures).
    /// `truncated` hears of a cut last record, or of a file that could not be read further.
    public func forEachPacket(_ body: (CapturedPacket) -> Void, truncated: (BtsnoopError) -> Void = { _ in }) {
        visitPackets({ body($0); return true }, truncated: truncated)
    }

    /// Like `forEachPacket(_:truncated:)`, but stops, reading no further, once `body` returns false.
    /// (A name of its own: with a trailing closure, an overload of forEachPacket would be ambiguous.)
    public func visitPackets(_ body: (CapturedPacket) -> Bool, truncated: (BtsnoopError) -> Void = { _ in }) {
        visitRawPackets({ body(CapturedPacket($0)) }, truncated: truncated)
    }

    /// Like `visitPackets(_:truncated:)`, with each packet's bytes where they lie.
    public func visitRawPackets(_ body: (RawPacket) -> Bool, truncated: (BtsnoopError) -> Void = { _ in }) {
        var records = 0
        switch source {
        case .memory(let data):
            data.withUnsafeBytes { all in
                let rest = UnsafeRawBufferPointer(rebasing: all[Self.headerSize...])
                let (used, stopped) = walkRecords(rest, records: &records, body)
                if !stopped, used < rest.count { truncated(.truncated(records: records)) }
            }
        case .file(let file):
            do {
                if let cut = try stream(file, records: &records, body) { truncated(cut) }
            } catch {
                truncated(error)
            }
        }
    }

    /// Walks a file a chunk at a time; a record cut by the chunk's end is moved to the front and
    /// completed by the next read. Returns the truncation to report, if any.
    private func stream(_ file: CaptureFile, records: inout Int, _ body: (RawPacket) -> Bool) throws(BtsnoopError) -> BtsnoopError? {
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 8)
        defer { buffer.deallocate() }
        var filled = 0
        var offset = Self.headerSize
        while true {
            let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: offset)
            filled += count
            offset += count
            // A short read is the end of the file, as it is now (it may have shrunk since we opened it).
            let atEnd = filled < buffer.count
            let (used, stopped) = walkRecords(UnsafeRawBufferPointer(rebasing: buffer[..<filled]), records: &records, body)
            if stopped { return nil }
            let left = filled - used
            if atEnd { return left > 0 ? .truncated(records: records) : nil }
            if used > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + used, byteCount: left) }
            filled = left
            guard left == buffer.count else { continue }
            // One record longer than the buffer: grow to fit it, unless it claims more than the file holds.
            let needed = Self.recordHeaderSize + Int(Self.be32(UnsafeRawBufferPointer(buffer), 4))
            guard offset - left + needed <= file.size else { return .truncated(records: records) }
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: needed, alignment: 8)
            larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: left)
            buffer.deallocate()
            buffer = larger
        }
    }

    /// Hands `body` every complete record in `bytes`; returns how many bytes they took and
    /// whether `body` asked to stop. Each record is checked against what is there, never trusted.
    private func walkRecords(_ bytes: UnsafeRawBufferPointer, records: inout Int,
                      _ body: (RawPacket) -> Bool) -> (used: Int, stopped: Bool) {
        var offset = 0
        while bytes.count - offset >= Self.recordHeaderSize {
            let included = Int(Self.be32(bytes, offset + 4))
            let start = offset + Self.recordHeaderSize
            guard bytes.count - start >= included else { break }
            let flags = Self.be32(bytes, offset + 8)
            let micros = Int64(bitPattern: UInt64(Self.be32(bytes, offset + 16)) << 32 | UInt64(Self.be32(bytes, offset + 20)))
            offset = start + included
            records += 1
            // Wrapping: a damaged record may hold any timestamp.
            let time = Date(timeIntervalSince1970: Double(micros &- Self.epochOffset) / 1_000_000)
            if let packet = packet(flags: flags, body: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), time: time),
               !body(packet) {
                return (offset, true)
            }
        }
        return (offset, false)
    }

    private func packet(flags: UInt32, body: UnsafeRawBufferPointer, time: Date) -> RawPacket? {
        switch datalink {
        case 1001:
            // Flags: bit 0 direction (1 = received), bit 1 command/event (1) or data (0).
            let received = flags & 1 != 0
            let type: H4PacketType = flags & 2 != 0 ? (received ? .event : .command) : .acl
            return RawPacket(type: type, received: received, timestamp: time, bytes: body)
        case 1002:
            guard let first = body.first, let type = H4PacketType(rawValue: first) else { return nil }
            return RawPacket(type: type, received: flags & 1 != 0, timestamp: time, bytes: UnsafeRawBufferPointer(rebasing: body[1...]))
        default:
            // Linux monitor: the low 16 bits of the flags are the opcode (btmon's btsnoop.h).
            switch flags & 0xFFFF {
            case 2: return RawPacket(type: .command, received: false, timestamp: time, bytes: body)
            case 3: return RawPacket(type: .event, received: true, timestamp: time, bytes: body)
            case 4: return RawPacket(type: .acl, received: false, timestamp: time, bytes: body)
            case 5: return RawPacket(type: .acl, received: true, timestamp: time, bytes: body)
            default: return nil
            }
        }
    }

    /// A big-endian 32-bit field at `offset`.
    @inline(__always)
    static func be32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
