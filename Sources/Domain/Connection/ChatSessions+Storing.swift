// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Writing behind: messages wait a moment to be stored together, one write after another off
/// the main thread, and a batch the store refuses (a full disk) waits and is offered again.
/// Once stored, old messages leave the session's memory; the store counts them.
extension ChatSessions {
    /// How many messages wait for their batch to be written.
    public var waitingToBeWritten: Int { pendingWrites.count }

    /// Waits until every message so far is written (tests, quitting).
    public func flush() async { await finishWriting()?.value }

    /// Starts writing what is queued at once and returns the write chain, for a caller that
    /// must wait without the main actor (quitting).
    public func finishWriting() -> Task<Void, Never>? {
        flushTask?.cancel()
        flushTask = nil
        writeNow()
        return writes
    }

    /// Queues messages for the store; a burst of notifications becomes one transaction.
    func store(_ messages: [ChatMessage], after delay: Duration = ChatSessions.batchDelay) {
        guard chats != nil else { return }
        pendingWrites += messages
        guard flushTask == nil else { return }
        let clock = clock
        flushTask = Task { @MainActor [weak self] in
            try? await clock.sleep(for: delay)
            guard !Task.isCancelled else { return }
            self?.flushTask = nil
            self?.writeNow()
        }
    }

    func writeNow() {
        guard !pendingWrites.isEmpty else { return }
        let batch = pendingWrites
        pendingWrites = []
        persist(batch: batch) { try await $0.append(batch) }
    }

    /// Runs `write` after the writes before it, off the main thread. A failure is said once, and a
    /// refused `batch` goes back in the queue (its messages as they are by then, written whole),
    /// so nothing is dropped while the disk is full.
    func persist(batch: [ChatMessage] = [], _ write: @escaping @Sendable (ChatRepository) async throws -> Void) {
        guard let chats else { return }
        let previous = writes
        writes = Task.detached(priority: .utility) { [weak self] in
            await previous?.value
            do {
                try await write(chats)
                // Not awaited: quitting waits for the writes on the main thread.
                Task { @MainActor in self?.storeFailing = false }
            } catch {
                await self?.refused(batch, reason: "\(error)")
            }
        }
    }

    func refused(_ batch: [ChatMessage], reason: String) {
        if !storeFailing {
            storeFailing = true
            onStoreProblem?(L10n.format("Chat messages could not be saved: {}. FavBlue keeps them and tries again.", reason))
        }
        guard !batch.isEmpty else { return }
        // Each message as it is now, so a delivery that changed meanwhile is written too; once,
        // though two refused writes (its sending, then its sent) carried it.
        let queued = Set(pendingWrites.map(\.id))
        let current = batch.filter { !queued.contains($0.id) }
            .map { message in session[message.device]?.first { $0.id == message.id } ?? message }
        pendingWrites = current + pendingWrites
        flushTask?.cancel()
        flushTask = nil
        store([], after: Self.retryDelay)
    }

    /// How many messages of `device` are stored.
    public func storedCount(of device: DeviceID) async throws -> Int {
        guard let chats else { return 0 }
        return try await chats.count(for: device)
    }

    /// Lets go of `device`'s oldest messages beyond `sessionTail` that the store already has and
    /// whose delivery is settled; without a store the session is all there is, so all stay.
    func trim(_ device: DeviceID) {
        guard chats != nil, let messages = session[device], messages.count > Self.sessionTail + 50 else { return }
        let queued = Set(pendingWrites.map(\.id))
        let old = messages.count - Self.sessionTail
        // One still sending (or unwritten) stays, without holding back those after it.
        let kept = messages.prefix(old).filter { $0.delivery == .sending || queued.contains($0.id) }
        guard kept.count < old else { return }
        session[device] = kept + messages.suffix(Self.sessionTail)
    }
}
