// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Writes a btsnoop capture, datalink 1002 (H4), which btmon and Wireshark read.
public final class BtsnoopWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    /// Creates (or replaces) the file at `path` and writes the header.
    public init(path: String) throws {
        // open(2), not FileManager.createFile: that one writes a temporary file and renames it
        // over the path, which would replace a symlink or a device node instead of writing to it.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSFilePathErrorKey: path])
        }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: Array("btsnoop\0".utf8) + Self.be32(1) + Self.be32(1002))
    }

    /// Appends one packet; `received` is controller → host. A failed write is dropped (see `append`).
    public func write(type: H4PacketType, bytes: [UInt8], received: Bool, at time: Date = Date()) {
        try? append(type: type, bytes: bytes, received: received, at: time)
    }

    /// Appends one packet, and throws when the file cannot take it (a full disk).
    public func append(type: H4PacketType, bytes: [UInt8], received: Bool, at time: Date = Date()) throws {
        let body = [type.rawValue] + bytes
        let micros = Int64(time.timeIntervalSince1970 * 1_000_000) + BtsnoopReader.epochOffset
        var flags: UInt32 = received ? 1 : 0
        if type == .command || type == .event { flags |= 2 }
        let record = Self.be32(UInt32(body.count)) + Self.be32(UInt32(body.count)) + Self.be32(flags) + Self.be32(0)
            + Self.be32(UInt32(truncatingIfNeeded: UInt64(bitPattern: micros) >> 32))
            + Self.be32(UInt32(truncatingIfNeeded: UInt64(bitPattern: micros))) + body
        lock.lock()
        defer { lock.unlock() }
        try handle.write(contentsOf: record)
    }

    /// Flushes and closes the file.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        try? handle.synchronize()
        try? handle.close()
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
