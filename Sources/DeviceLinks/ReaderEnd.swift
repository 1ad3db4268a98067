// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The end of a link's reading thread, and the close of the link's descriptor. Closed under a
/// read or a send, the descriptor's number could go to the next file opened, whose bytes the old
/// thread would take, or which a send would write into. So the reader closes it as it ends,
/// unless a send is using it; that send closes it as it returns. `close()` waits here, so a
/// link opened next has the line to itself.
final class ReaderEnd: @unchecked Sendable {
    private let fd: Int32
    private let ended = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var readerGone = false
    private var senders = 0

    init(fd: Int32) { self.fd = fd }

    /// Runs `body` with the descriptor, or returns nil once the reader ended (the link is gone).
    func sending<T, E: Error>(_ body: (Int32) throws(E) -> T) throws(E) -> T? {
        let open = lock.withLock { () -> Bool in
            guard !readerGone else { return false }
            senders += 1
            return true
        }
        guard open else { return nil }
        defer {
            let last = lock.withLock { () -> Bool in
                senders -= 1
                return readerGone && senders == 0
            }
            if last { release() }
        }
        return try body(fd)
    }

    /// Called by the reading thread as it ends; the descriptor closes now or after the last send.
    func readerEnded() {
        let unused = lock.withLock { () -> Bool in
            readerGone = true
            return senders == 0
        }
        if unused { release() }
    }

    private func release() {
        Glibc.close(fd)
        ended.signal()
    }

    /// Returns once the descriptor is closed, without holding a thread of the cooperative pool.
    func wait() async {
        let ended = self.ended
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                ended.wait()
                done.resume()
            }
        }
    }
}
