// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Listening: the remote sources (brokers' gateways) heard for as long as the app is open,
/// apart from this computer's scans, since they cost its radio nothing.
extension LiveDevices {
    /// Whether remote sources are listening now.
    public var isListening: Bool { listener != nil && listenerState == .scanning }

    /// Starts (again) the remote sources' listening, with the sources as they are now.
    public func listen() {
        listenerTasks.forEach { $0.cancel() }
        listener?.stop()
        listener = nil
        listenerState = .idle
        guard let listener = makeListener?() else { return }
        self.listener = listener
        let inbox = self.inbox
        let observations = listener.observations, states = listener.states
        listenerFeeds = [observations, states]
        let clock = clock, interval = refreshInterval
        listenerTasks = [
            Task.detached { for await o in observations { inbox.add(o) } },
            Task { [weak self] in for await s in states where !Task.isCancelled { self?.listenerState = s } },
            // While this computer's radio is off, its timer is too: fold what the listeners hear.
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await clock.sleep(for: interval * 4)
                    guard let self, !Task.isCancelled else { return }
                    if self.scanner == nil { self.tick() }
                }
            },
        ]
        listener.start()
    }
}
