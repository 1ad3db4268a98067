// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The end of a link's reading thread, which alone closes the link's descriptor: closed under
/// the thread's read, the descriptor's number could go to the next link opened, whose messages
/// the old thread would then take. `close()` waits here, so a link opened next has it to itself.
final class ReaderEnd: @unchecked Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// Called by the reading thread once it closed the descriptor.
    func signal() { ended.signal() }

    /// Returns once the reading thread ended, without holding a thread of the cooperative pool.
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
