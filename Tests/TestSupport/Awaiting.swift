// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
import Domain
import Foundation

// Ways for a test to await what it caused instead of sleeping a fixed time.

/// Lets other tasks on the main actor run until `condition` holds, without waiting on real time:
/// for work a test clock has just released (a retry after `advance`). False if it never held.
@MainActor
public func untilTrue(_ condition: @MainActor () -> Bool, yields: Int = 10_000) async -> Bool {
    for _ in 0..<yields {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Moves `clock` on by `step` until `done` holds, and says whether it did. A task that sleeps on
/// the test clock may begin its sleep only after a first move, which then wakes nothing: awaiting
/// it after one move hung a whole test run. Bounded by `limit` of real time, so a timer that
/// never fires fails the test rather than holding it.
public func advance(_ clock: TestClock<Duration>, by step: Duration, until done: () -> Bool,
                    limit: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !done() {
        guard ContinuousClock.now < deadline else { return false }
        await clock.advance(by: step)
        // The woken task's turns, on this actor or another thread, before the clock moves again.
        for _ in 0..<1_000 where !done() { await Task.yield() }
    }
    return true
}

/// Waits until the thread named `name` (`Thread.named`) is asleep in the kernel, blocked in a
/// wait, a read or a write, and says whether it got there within `timeout` seconds. It reads the
/// thread's state in /proc, the state itself rather than a time guessed long enough for it.
public func untilAsleep(threadNamed name: String, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .newlines) == name,
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "pid (comm) S ...": the state follows the name.
            if stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("S") { return true }
        }
        sched_yield()
    } while Date() < deadline
    return false
}

/// Waits until `live`'s scan has played out (a replay that ran to its end), then folds what it
/// sent; false if it had not after `timeout` seconds.
@MainActor
public func playOut(_ live: LiveDevices, timeout: Double = 20) async -> Bool {
    var token: ObservationToken?
    var timer: Task<Void, Never>?
    let finished: Bool = await withCheckedContinuation { continuation in
        var told = false
        let tell: @MainActor (Bool) -> Void = { value in
            guard !told else { return }
            told = true
            continuation.resume(returning: value)
        }
        token = live.observe { change in
            if case .state = change, live.isReplayOver { tell(true) }
        }
        if live.isReplayOver { tell(true) }
        // A bound, not a wait: the replay's end ends it long before.
        timer = Task { @MainActor in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            tell(live.isReplayOver)
        }
    }
    timer?.cancel()
    token?.invalidate()
    await live.drain()
    return finished
}

/// Returns as soon as `condition` holds, or after `timeout` seconds: for what a real thread (an
/// adapter's read thread, a peer process) does in its own time. Polls every 10 ms, a bound on
/// how late it notices, never a fixed wait.
public func eventually(timeout: Double = 10, _ condition: () -> Bool) async {
    let deadline = Date().addingTimeInterval(timeout)
    // The poll described above.
    while Date() < deadline, !condition() { try? await Task.sleep(nanoseconds: 10_000_000) }
}

/// The first element of `feed` that `matches`, or nil after `timeout` seconds: awaited as it is
/// sent, never polled. The feed is done with afterwards (take a fresh one from its source).
public func first<Element: Sendable>(_ feed: Feed<Element>, timeout: Double = 15,
                                     where matches: @escaping @Sendable (Element) -> Bool = { _ in true }) async -> Element? {
    await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in feed where matches(element) { return element }
            return nil
        }
        // A bound, not a wait: the element ends it long before.
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            return nil
        }
        let found = await group.next() ?? nil
        group.cancelAll()
        return found
    }
}
