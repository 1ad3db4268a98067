// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Views

/// For the peripheral benchmark (FAVBLUE_PERIPHERAL_BENCHMARK=FILE): imports the file, shows Act
/// as a Device, and starts its first advertisement STARTS times (FAVBLUE_PERIPHERAL_BENCHMARK_STARTS,
/// 11), printing "peripheral-benchmark start N µs" to stderr as each starts, for a central to time
/// its first report. Then it serves, waits for a central to follow the first characteristic that
/// notifies, and presses its Send RATE times a second (FAVBLUE_PERIPHERAL_BENCHMARK_RATE, 4000) for
/// SECONDS (FAVBLUE_PERIPHERAL_BENCHMARK_SECONDS, 10), the page on screen, measuring the main
/// thread. Prints one "peripheral-benchmark {json}" line and quits.
@MainActor
final class PeripheralBenchmark {
    private let file: String
    private let starts: Int
    private let rate: Int
    private let seconds: Double
    private let window: MainWindow
    private let role: PeripheralRole
    private let quit: () -> Void

    init?(environment: [String: String], window: MainWindow, role: PeripheralRole, quit: @escaping () -> Void) {
        guard let file = environment["FAVBLUE_PERIPHERAL_BENCHMARK"], !file.isEmpty else { return nil }
        self.file = file
        starts = environment["FAVBLUE_PERIPHERAL_BENCHMARK_STARTS"].flatMap(Int.init) ?? 11
        rate = max(100, environment["FAVBLUE_PERIPHERAL_BENCHMARK_RATE"].flatMap(Int.init) ?? 4000)
        seconds = environment["FAVBLUE_PERIPHERAL_BENCHMARK_SECONDS"].flatMap(Double.init) ?? 10
        self.window = window
        self.role = role
        self.quit = quit
    }

    func start() {
        Task { @MainActor in
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return finish(["error": "\(file) cannot be read"]) }
            do { try role.importFile(text) } catch { return finish(["error": "\(error)"]) }
            window.showPeripheral()
            await role.refreshFacts()
            guard let id = role.advertisements.last?.id else { return finish(["error": "the file has no advertisement"]) }
            for run in 0..<starts {
                if role.on.contains(id) { await role.stop(id) }
                try? await Task.sleep(for: .milliseconds(400))
                Self.say("start \(run) \(MainLoop.monotonicMicroseconds)")
                await role.start(id)
                if let problem = role.problems[id] { return finish(["error": problem]) }
                try? await Task.sleep(for: .milliseconds(1500))
            }
            Self.say("starts-done")
            await role.startServing()
            if let problem = role.serverProblem { return finish(["error": problem]) }
            guard let (characteristic, index) = notifying() else { return finish(["error": "nothing in the file notifies"]) }
            Self.say("serving \(characteristic.uuid.text)")
            while !role.centrals.contains(where: { $0.entries.contains { if case .subscribed(_, index, false) = $0.event { true } else { false } } }) {
                try? await Task.sleep(for: .milliseconds(50))
            }
            try? await Task.sleep(for: .milliseconds(500))
            let quiet = await idle(1)
            let perTick = rate / 100
            let cpu = FrameStats.threadCPUSeconds(), wall = FrameStats.monotonicSeconds()
            Self.say("sending \(MainLoop.monotonicMicroseconds)")
            var sent = 0, tick = 0
            while FrameStats.monotonicSeconds() - wall < seconds {
                for _ in 0..<perTick { sent += await role.send(index) }
                tick += 1
                // Ticks on the clock, not after each other: a slow tick is caught up, not lost.
                let next = wall + Double(tick) / 100
                let wait = next - FrameStats.monotonicSeconds()
                if wait > 0 { try? await Task.sleep(for: .microseconds(Int(wait * 1e6))) }
            }
            let elapsed = FrameStats.monotonicSeconds() - wall
            let busy = (FrameStats.threadCPUSeconds() - cpu) / elapsed
            // The last ones are still on their way: the central's count is taken after this line.
            finish(["sent": sent, "seconds": elapsed, "offered_per_second": Double(sent) / elapsed,
                    "main_thread_busy": busy, "quiet_main_thread_busy": quiet, "characteristic": characteristic.uuid.text])
        }
    }

    /// The first characteristic that notifies, and where it is.
    private func notifying() -> (ServedCharacteristic, ServedCharacteristicID)? {
        for (s, service) in (role.server?.services ?? []).enumerated() {
            for (c, characteristic) in service.characteristics.enumerated() where characteristic.properties.contains(.notify) {
                return (characteristic, ServedCharacteristicID(service: s, characteristic: c))
            }
        }
        return nil
    }

    /// The main thread's CPU share over `seconds` of nothing to do.
    private func idle(_ seconds: Double) async -> Double {
        let cpu = FrameStats.threadCPUSeconds(), wall = FrameStats.monotonicSeconds()
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        return (FrameStats.threadCPUSeconds() - cpu) / (FrameStats.monotonicSeconds() - wall)
    }

    private static func say(_ text: String) {
        FileHandle.standardError.write(Data("peripheral-benchmark \(text)\n".utf8))
    }

    private func finish(_ result: [String: Any]) {
        FrameStats.report("peripheral-benchmark", result)
        // A moment for the last notifications to leave before the link closes.
        Task { @MainActor in
            try? await Task.sleep(for: .seconds(2))
            quit()
        }
    }
}
