// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A capture file read in fixed-size chunks with pread(2), so memory stays flat however long
/// the capture is. Reading rather than mapping is deliberate: a mapped file that shrinks under
/// us raises SIGBUS on the next touch, which Swift cannot turn into an error; a short read is
/// just the end of the data, reported as a truncated capture.
final class CaptureFile: @unchecked Sendable {
    /// The open file; closed when the last reader lets go of it.
    let fd: Int32
    /// The path, for messages.
    let path: String

    /// What opening a path gave: a regular file to read at offsets, or, for anything without
    /// offsets (a FIFO, a character device), everything it held, read once from the same open.
    enum Opened {
        case file(CaptureFile)
        case bytes([UInt8])
    }

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Opens `path`; a directory or a path that cannot be opened is unreadable.
    static func open(path: String) throws(BtsnoopError) -> Opened {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(L10n.format("no readable file at {}", path)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            Glibc.close(fd)
            throw .unreadable(L10n.format("no readable file at {}", path))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .file(CaptureFile(fd: fd, path: path))
        case S_IFDIR:
            Glibc.close(fd)
            throw .unreadable(L10n.format("no readable file at {}", path))
        default:
            // Reopening would lose what a FIFO's writer already sent, so read it from this descriptor.
            defer { Glibc.close(fd) }
            return .bytes(try readWhole(fd: fd, path: path))
        }
    }

    deinit { Glibc.close(fd) }

    /// The file's size now (it may change while it is read).
    var size: Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Fills `buffer` from `offset` as far as the file goes; returns the bytes read (fewer at the end).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(BtsnoopError) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(L10n.format("{}: {}", path, String(cString: strerror(errno))))
            }
            done += n
        }
        return done
    }

    /// Everything a non-seekable file (a FIFO, say) holds, read to its end.
    private static func readWhole(fd: Int32, path: String) throws(BtsnoopError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return bytes }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(L10n.format("{}: {}", path, String(cString: strerror(errno))))
            }
            bytes += chunk[0..<n]
        }
    }
}
