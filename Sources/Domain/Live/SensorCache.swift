// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Synchronization

/// What a device's payload decoded to, once asked, and the frames before it that a partial
/// frame's readings join.
///
/// A family that sends its readings a few a frame (MiBeacon: the temperature, then the humidity)
/// needs the frames before the current one. They are kept undecoded until someone asks, and a
/// frame that a later one carries all of (`FrameContents`) is dropped unread: in a busy room
/// most frames are never shown. Were the later frame's value out of range, the reading from
/// before both stays.
final class SensorCache: Sendable, Equatable {
    private struct Pending {
        let frame: SensorFrame
        let contents: FrameContents?
    }

    private struct State {
        var decoded: SensorData?? = nil
        /// What the frames before `pending` came to.
        var base: SensorData? = nil
        /// Frames heard before the current one and not yet decoded, oldest first.
        var pending: [Pending] = []
    }

    /// Undecoded frames kept at most; beyond it the oldest is decoded into `base`.
    private static let most = 6

    private let state: Mutex<State>

    init() { state = Mutex(State()) }

    private init(_ s: State) { state = Mutex(s) }

    /// The payload changed from `before` (nil: a family whose frames each carry all of its readings).
    func reset(after before: SensorFrame?) { state.withLock { Self.advance(&$0, past: before) } }

    /// A cache for the payload after `before`, leaving this one to the copies that hold it.
    func continued(after before: SensorFrame?) -> SensorCache {
        var s = state.withLock { $0 }
        Self.advance(&s, past: before)
        return SensorCache(s)
    }

    /// In place, so the pending frames are not copied at each report.
    private static func advance(_ s: inout State, past before: SensorFrame?) {
        guard let before else { s = State(); return }
        if let done = s.decoded {
            s = State(base: done)
            return
        }
        let contents = SensorDecoders.contents(before)
        s.pending.removeAll { covered($0.contents, by: contents) }
        s.pending.append(Pending(frame: before, contents: contents))
        if s.pending.count > most { s.base = fold(s.base, s.pending.removeFirst().frame) }
    }

    private static func covered(_ older: FrameContents?, by newer: FrameContents?) -> Bool {
        guard let older, let newer else { return false }
        return newer.covers(older)
    }

    /// `frame`'s readings joined with those of `older`.
    private static func fold(_ older: SensorData?, _ frame: SensorFrame) -> SensorData? {
        SensorDecoders.decode(frame).map { $0.keepingProbes(of: older) }
    }

    /// What the current payload, `current`, decodes to; decoded the first time asked.
    func read(_ current: () -> SensorFrame) -> SensorData? {
        state.withLock { s in
            if let done = s.decoded { return done }
            let frame = current()
            let contents = s.pending.isEmpty ? nil : SensorDecoders.contents(frame)
            var older = s.base
            for p in s.pending where !Self.covered(p.contents, by: contents) {
                older = Self.fold(older, p.frame)
            }
            let data = Self.fold(older, frame)
            s = State(decoded: .some(data))
            return data
        }
    }

    /// Derived from the payload compared beside it, so no part of equality.
    static func == (a: SensorCache, b: SensorCache) -> Bool { true }
}
