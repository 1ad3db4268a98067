// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A one-shot GLib timeout; the handler is released when it has run or is cancelled.
@MainActor
public final class Timeout {
    private final class Box {
        let handler: () -> Void
        init(_ handler: @escaping () -> Void) { self.handler = handler }
    }

    private var sourceID: UInt32 = 0

    init(seconds: Double, _ handler: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, UInt32(max(0, seconds) * 1000), { data in
            guard let data else { return 0 }
            MainActor.assumeIsolated { Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().handler() }
            return 0 // G_SOURCE_REMOVE
        }, box, { data in
            guard let data else { return }
            Unmanaged<Box>.fromOpaque(data).release()
        })
    }

    /// Whether the handler has neither run nor been cancelled.
    public var isPending: Bool {
        sourceID != 0 && g_main_context_find_source_by_id(nil, sourceID) != nil
    }

    /// Drops the timeout if it has not fired yet.
    public func cancel() {
        if isPending { g_source_remove(sourceID) }
        sourceID = 0
    }
}
