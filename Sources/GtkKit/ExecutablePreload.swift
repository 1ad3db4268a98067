// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The executable carries the Swift runtime, Foundation and every module: its code alone is some
/// 28 MB. When the system has dropped it from memory (a cold start, or a kernel that pages out
/// what was not touched for a few seconds), each page the first window needs is read when it is
/// first run, in small scattered reads. Asking for the code at `main` lets the kernel read it in
/// large ones while GTK starts, which needs only the shared libraries.
public enum ExecutablePreload {
    public static func start() {
        Thread.detachNewThread {
            let fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            guard let (offset, length) = codeSegment(of: fd) else { return }
            _ = posix_fadvise(fd, offset, length, POSIX_FADV_WILLNEED)
        }
    }

    /// The file range of the executable (PF_X) loadable segment of a 64-bit ELF file.
    static func codeSegment(of fd: Int32) -> (off_t, off_t)? {
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            return bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) } == count ? bytes : nil
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        // "\x7FELF", 64-bit, little-endian.
        guard let header = read(64, at: 0), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        let table = integer(header, 0x20, 8), entrySize = integer(header, 0x36, 2), count = integer(header, 0x38, 2)
        guard entrySize >= 56, count < 64, let entries = read(entrySize * count, at: table) else { return nil }
        for index in 0..<count {
            let entry = index * entrySize
            let isLoad = integer(entries, entry, 4) == 1, isExecutable = integer(entries, entry + 4, 4) & 1 != 0
            if isLoad && isExecutable {
                return (off_t(integer(entries, entry + 8, 8)), off_t(integer(entries, entry + 32, 8)))
            }
        }
        return nil
    }
}
