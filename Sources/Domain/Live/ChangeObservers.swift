// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// A token that keeps an observation alive; dropping or cancelling it ends the observation.
@MainActor
public final class ObservationToken {
    private var cancel: (() -> Void)?

    init(cancel: @escaping () -> Void) { self.cancel = cancel }

    /// Stops delivering changes.
    public func invalidate() {
        cancel?()
        cancel = nil
    }

    isolated deinit { cancel?() }
}

/// The list of callbacks a model calls after its state changed.
///
/// Views subscribe once and re-read the state they show; models call
/// `notify()` after a batch of changes, never once per field.
@MainActor
public final class ChangeObservers {
    private var handlers: [Int: @MainActor () -> Void] = [:]
    private var nextID = 0

    public init() {}

    /// Registers `handler`; it runs after every `notify()` while the token lives.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        handlers[id] = handler
        return ObservationToken { [weak self] in self?.handlers[id] = nil }
    }

    /// Calls every registered handler once.
    public func notify() {
        for handler in handlers.values { handler() }
    }
}
