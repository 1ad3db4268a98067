// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

extension Thread {
    /// A thread that names itself `name` as it starts, where top, gdb and the benchmarks read
    /// threads (/proc). Not `Thread.name`: given before start() it never reaches the kernel, and
    /// given inside, Foundation's own start() can still undo it (about 1 start in 2,000 under load).
    public static func named(_ name: String, _ body: @escaping @Sendable () -> Void) -> Thread {
        Thread {
            nameThisThread(name)
            body()
        }
    }
}

/// Names the calling thread in the kernel (15 bytes at most, as Linux keeps).
private func nameThisThread(_ name: String) {
    // pthread_setname_np is not in Swift's Glibc; the kernel takes the name here as well.
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    defer { close(fd) }
    _ = name.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
}
