// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Quitting: however the app ends, nothing waiting is lost.
extension FavBlueApp {
    func quit() {
        shutDown()
        window?.window.close()
        application.quit()
    }

    /// However the app ends (Ctrl+Q, the last window closed): a recording ends with a complete
    /// file, the connection ends, and chat messages not yet written are written first.
    func shutDown() {
        live?.stop()
        guard let sessions, !shutDownDone else { return }
        shutDownDone = true
        let told = DispatchSemaphore(value: 0)
        sessions.disconnectBeforeQuitting(within: 2) { told.signal() }
        let writes = sessions.finishWriting()
        let peripheralWrites = peripheral?.pendingWrites
        let sightings = live?.pendingWrites
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await writes?.value
            await sightings?.value
            await peripheralWrites?.value
            done.signal()
        }
        if done.wait(timeout: .now() + 3) == .timedOut {
            printError(L10n.tr("Some chat messages or sightings could not be saved before FavBlue quit."))
        }
        _ = told.wait(timeout: .now() + 2)
        link?.close()
        // The scan's StopDiscovery goes out first, so bluetoothd is not left discovering for us.
        bus?.finish(within: 1)
    }

    func printError(_ message: String) {
        FileHandle.standardError.write(Data(("favblue: " + message + "\n").utf8))
    }
}
