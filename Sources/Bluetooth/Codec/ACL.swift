// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// One HCI ACL data packet (Core v5.4, Vol 4, Part E, §5.4.2).
public struct ACLPacket: Equatable, Sendable {
    /// Packet boundary flag values for LE (§5.4.2).
    public enum Boundary: UInt8, Sendable {
        /// First fragment, host to controller (non-automatically-flushable).
        case firstNonFlushable = 0b00
        /// A continuation fragment.
        case continuation = 0b01
        /// First fragment, controller to host.
        case first = 0b10
    }

    /// The connection handle, 12 bits.
    public let handle: UInt16
    /// Where this fragment sits in its L2CAP frame.
    public let boundary: Boundary
    /// The fragment's bytes.
    public let data: [UInt8]

    /// Creates a packet.
    public init(handle: UInt16, boundary: Boundary, data: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.boundary = boundary
        self.data = data
    }

    /// The packet without its H4 indicator.
    public var bytes: [UInt8] {
        let word = handle & 0x0FFF | UInt16(boundary.rawValue) << 12
        return [UInt8(word & 0xFF), UInt8(word >> 8), UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data
    }

    /// Decodes a packet; its length field must match the data that follows.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> ACLPacket {
        var r = ByteReader(bytes)
        let word = try r.u16("ACL handle")
        let length = Int(try r.u16("ACL length"))
        let data = try r.take(length, "ACL data")
        guard r.remaining == 0 else { throw .malformed("ACL packet longer than its length field") }
        guard let boundary = Boundary(rawValue: UInt8((word >> 12) & 0x03)) else {
            throw .unsupported("ACL packet boundary flag 0b11")
        }
        return ACLPacket(handle: word & 0x0FFF, boundary: boundary, data: Array(data))
    }

    /// Cuts one L2CAP frame into packets of at most `bufferSize` data bytes for the controller.
    public static func fragments(of frame: [UInt8], handle: UInt16, bufferSize: Int) -> [ACLPacket] {
        let size = max(bufferSize, 1)
        guard !frame.isEmpty else { return [ACLPacket(handle: handle, boundary: .firstNonFlushable, data: [])] }
        return stride(from: 0, to: frame.count, by: size).map { start in
            ACLPacket(handle: handle, boundary: start == 0 ? .firstNonFlushable : .continuation,
                      data: Array(frame[start..<min(start + size, frame.count)]))
        }
    }
}

/// Joins start and continuation fragments back into whole L2CAP frames, per connection.
/// Anything that does not fit is dropped with a typed error; the next start fragment begins afresh.
public struct ACLReassembler: Sendable {
    private var partial: [UInt16: [UInt8]] = [:]

    /// An empty reassembler.
    public init() {}

    /// Adds one packet; returns the L2CAP frame it completes, or nil while more is to come.
    public mutating func add(_ packet: ACLPacket) throws(DecodeError) -> [UInt8]? {
        var buffer: [UInt8]
        switch packet.boundary {
        case .first, .firstNonFlushable:
            let dropped = partial.removeValue(forKey: packet.handle)
            buffer = packet.data
            if let dropped, !dropped.isEmpty {
                // Keep the new start; the old frame is lost either way.
                partial[packet.handle] = buffer
                if let frame = try complete(packet.handle) { return frame }
                throw .malformed("a start fragment arrived before the previous frame was complete")
            }
        case .continuation:
            guard let started = partial[packet.handle] else { throw .malformed("a continuation fragment without a start") }
            buffer = started + packet.data
        }
        partial[packet.handle] = buffer
        return try complete(packet.handle)
    }

    /// Forgets the partial frame of `handle` (its connection ended).
    public mutating func reset(_ handle: UInt16) {
        partial[handle] = nil
    }

    private mutating func complete(_ handle: UInt16) throws(DecodeError) -> [UInt8]? {
        guard let buffer = partial[handle], buffer.count >= 4 else { return nil }
        let total = 4 + (Int(buffer[0]) | Int(buffer[1]) << 8)
        if buffer.count < total { return nil }
        partial[handle] = nil
        guard buffer.count == total else { throw .malformed("ACL fragments longer than their L2CAP frame") }
        return buffer
    }
}
