// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// A stream from one producer to one consumer whose consumption can be awaited.
///
/// Ports hand their events out as feeds, not bare `AsyncStream`s: an owner that reads one
/// (LiveDevices, ChatSessions) can then wait until "everything sent so far has been applied"
/// (`applied()`), so tests await that instead of sleeping. An element counts as applied
/// once the consumer asks for the one after it, which is when its loop body has run.
/// Unbounded, so nothing is dropped; safe from any thread.
public final class Feed<Element: Sendable>: AsyncSequence, Drainable, @unchecked Sendable {
    private let stream: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation
    private let lock = NSLock()
    private var yielded = 0
    private var handled = 0
    /// The consumer got the end (or gave up): nothing more will be applied.
    private var over = false
    private var waiters: [(target: Int, resume: CheckedContinuation<Void, Never>)] = []

    /// An empty feed; `yield` fills it.
    public init() {
        (stream, continuation) = AsyncStream<Element>.makeStream()
        continuation.onTermination = { [weak self] termination in
            guard let self else { return }
            if case .cancelled = termination { self.end() }
            self.lock.withLock { self.terminationHandler }?()
        }
    }

    /// A feed that has ended already (a source that never reports this kind of event).
    public static var finished: Feed {
        let feed = Feed()
        feed.finish()
        return feed
    }

    /// Sends `element` to the consumer.
    public func yield(_ element: Element) {
        lock.withLock { yielded += 1 }
        continuation.yield(element)
    }

    /// Ends the feed; the consumer's loop ends after the elements before.
    public func finish() { continuation.finish() }

    /// Called once the consumer stops listening (cancelled, or the feed finished).
    public var onTermination: (@Sendable () -> Void)? {
        get { lock.withLock { terminationHandler } }
        set { lock.withLock { terminationHandler = newValue } }
    }
    private var terminationHandler: (@Sendable () -> Void)?

    /// Returns once the consumer has handled every element yielded before this call, or has
    /// stopped listening.
    public func applied() async {
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let done: Bool = lock.withLock {
                if over || handled >= yielded { return true }
                waiters.append((yielded, resume))
                return false
            }
            if done { resume.resume() }
        }
    }

    private func mark(handled count: Int) {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            handled += count
            // Thousands of reports a second and, outside tests, nobody waiting: nothing to sort out.
            guard !waiters.isEmpty else { return [] }
            let (now, later) = (waiters.filter { $0.target <= handled }, waiters.filter { $0.target > handled })
            waiters = later
            return now.map(\.resume)
        }
        if !ready.isEmpty { ready.forEach { $0.resume() } }
    }

    private func end() {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            over = true
            defer { waiters = [] }
            return waiters.map(\.resume)
        }
        ready.forEach { $0.resume() }
    }

    /// Reads the feed; asking for the next element marks the one before as applied.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let feed: Feed
        fileprivate var inner: AsyncStream<Element>.AsyncIterator
        fileprivate var holding = false

        public mutating func next() async -> Element? {
            if holding {
                holding = false
                feed.mark(handled: 1)
            }
            let element = await inner.next()
            if element == nil {
                feed.end()
            } else {
                holding = true
            }
            return element
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(feed: self, inner: stream.makeAsyncIterator())
    }
}

/// Anything whose consumption can be awaited, whatever it carries.
public protocol Drainable: Sendable {
    /// Returns once everything sent before the call has been applied.
    func applied() async
}
