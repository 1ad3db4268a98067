// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import ViewModels
import Views

extension FavBlueApp {
    /// What the benchmarks' build drives once the first window is shown.
    public struct Shown {
        public let window: MainWindow
        public let scanner: ScannerViewModel
        public let chats: ChatRepository
        public let sessions: ChatSessions
        public let browser: GATTBrowser
        public let deviceManager: DeviceManager
        public let peripheral: PeripheralRole
        /// Messages every MQTT source has taken so far.
        public let brokerMessages: () -> Int
        /// Quits the app as Ctrl+Q does.
        public let quit: () -> Void
    }
}
