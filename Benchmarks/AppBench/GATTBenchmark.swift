// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Views

/// For the GATT benchmark (FAVBLUE_GATT_BENCHMARK=SECONDS, FAVBLUE_GATT_BENCHMARK_DEVICE=ADDRESS/KIND):
/// connects to the device from its page, measures the main thread and the frame clock for
/// SECONDS while connected and quiet, then subscribes to its Heart Rate Measurement with the
/// log on screen and measures the same again while values stream in, the frame clock asked for
/// every frame throughout; then unsubscribes and counts what arrived. Prints one
/// "gatt-benchmark {json}" line to stderr and quits.
@MainActor
final class GATTBenchmark {
    private let seconds: Double
    private let device: DeviceID
    private let window: MainWindow
    private let sessions: ChatSessions
    private let browser: GATTBrowser
    private let quit: () -> Void
    private let paints = PaintLog()

    init?(environment: [String: String], window: MainWindow, sessions: ChatSessions, browser: GATTBrowser,
          quit: @escaping () -> Void) {
        guard let text = environment["FAVBLUE_GATT_BENCHMARK"], let seconds = Double(text), seconds > 0,
              let key = environment["FAVBLUE_GATT_BENCHMARK_DEVICE"], let device = try? DeviceID(storageKey: key) else { return nil }
        self.seconds = seconds
        self.device = device
        self.window = window
        self.sessions = sessions
        self.browser = browser
        self.quit = quit
    }

    func start() {
        paints.follow(window.window)
        Task { @MainActor in
            window.showDetail(of: device)
            sessions.connect(to: device)
            while browser.phase != .ready { try? await Task.sleep(nanoseconds: 50_000_000) }
            guard let measurement = browser.services.flatMap(\.characteristics).first(where: { $0.uuid == BluetoothUUID(0x2A37) }) else {
                return finish(["error": "the device has no Heart Rate Measurement"])
            }
            (window.visiblePage as? DeviceDetailPage)?.revealCharacteristic(measurement.valueHandle)
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            window.window.keepFrameClockRunning(true)
            let quiet = await measure()
            let handle = measurement.valueHandle
            await browser.setSubscribed(handle, true)
            try? await Task.sleep(nanoseconds: 300_000_000)
            (window.visiblePage as? DeviceDetailPage)?.showLog(of: handle)
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            let before = browser.received[handle] ?? 0
            let busy = await measure()
            let received = (browser.received[handle] ?? 0) - before
            // Unsubscribing is answered after every value the peer sent before it: the total
            // is then whole, to be held against the peer's own count.
            await browser.setSubscribed(handle, false)
            window.window.keepFrameClockRunning(false)
            finish([
                "seconds": seconds,
                "quiet": quiet, "busy": busy,
                "notifications_per_second": Double(received) / seconds,
                "notifications_received": browser.received[handle] ?? 0,
                "main_busy_ratio": (busy["main_thread_busy"] ?? 0) / max(quiet["main_thread_busy"] ?? 0, 0.0001),
            ])
        }
    }

    /// The main thread's CPU share and the frame intervals over `seconds`.
    private func measure() async -> [String: Double] {
        paints.restart()
        let cpu = FrameStats.threadCPUSeconds(), wall = FrameStats.monotonicSeconds()
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        var figures = paints.figures
        figures["main_thread_busy"] = (FrameStats.threadCPUSeconds() - cpu) / (FrameStats.monotonicSeconds() - wall)
        return figures
    }

    private func finish(_ result: [String: Any]) {
        FrameStats.report("gatt-benchmark", result)
        quit()
    }
}
