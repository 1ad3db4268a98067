// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Views

/// For the Device Manager benchmark (FAVBLUE_DM_BENCHMARK=IMAGE, FAVBLUE_DM_BENCHMARK_DEVICE=ADDRESS/KIND):
/// connects to the board from its page, waits for its Device Manager, and runs Update Firmware
/// with IMAGE in Test Only (no restart), the page on screen, measuring the main thread and the
/// frame clock from the start of the update to its end. Prints one "devicemanager-benchmark {json}"
/// line to stderr and quits.
@MainActor
final class DeviceManagerBenchmark {
    private let file: String
    private let device: DeviceID
    private let window: MainWindow
    private let sessions: ChatSessions
    private let manager: DeviceManager
    private let quit: () -> Void
    private let paints = PaintLog()

    init?(environment: [String: String], window: MainWindow, sessions: ChatSessions, manager: DeviceManager,
          quit: @escaping () -> Void) {
        guard let file = environment["FAVBLUE_DM_BENCHMARK"], !file.isEmpty,
              let key = environment["FAVBLUE_DM_BENCHMARK_DEVICE"], let device = try? DeviceID(storageKey: key) else { return nil }
        self.file = file
        self.device = device
        self.window = window
        self.sessions = sessions
        self.manager = manager
        self.quit = quit
    }

    func start() {
        paints.follow(window.window)
        Task { @MainActor in
            guard let data = FileManager.default.contents(atPath: file), let image = try? MCUbootImage.read(Array(data)) else {
                return finish(["error": "\(file) is no MCUboot image"])
            }
            window.showDetail(of: device)
            sessions.connect(to: device)
            while manager.phase != .ready {
                if case .failed(let why) = manager.phase { return finish(["error": why]) }
                try? await Task.sleep(for: .milliseconds(50))
            }
            try? await Task.sleep(for: .milliseconds(500))
            paints.restart()
            let cpu = FrameStats.threadCPUSeconds(), process = FrameStats.processCPUSeconds(), wall = FrameStats.monotonicSeconds()
            manager.startUpdate([UpdateImage(number: 0, bytes: Array(data), image: image)], fileName: (file as NSString).lastPathComponent,
                                mode: .testOnly)
            while manager.update?.isRunning == true { try? await Task.sleep(for: .milliseconds(20)) }
            let elapsed = FrameStats.monotonicSeconds() - wall
            var result: [String: Any] = [
                "bytes": data.count, "seconds": elapsed, "kB_per_second": Double(data.count) / elapsed / 1000,
                "main_thread_busy": (FrameStats.threadCPUSeconds() - cpu) / elapsed,
                "process_cpu_share": (FrameStats.processCPUSeconds() - process) / elapsed,
            ]
            result.merge(paints.figures) { mine, _ in mine }
            if let failure = manager.update?.failure { result["error"] = failure.message }
            finish(result)
        }
    }

    private func finish(_ result: [String: Any]) {
        FrameStats.report("devicemanager-benchmark", result)
        quit()
    }
}
