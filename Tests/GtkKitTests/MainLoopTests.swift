// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Dispatch
import Foundation
import CAdwaita
@testable import GtkKit
import XCTest

final class MainLoopTests: GtkTestCase {
    /// Runs a real GApplication on the main thread and calls `body` once it is active.
    @MainActor
    private func runApplication(timeoutMs: UInt32 = 5000, _ body: @escaping (Application) -> Void) {
        let app = Application(id: "io.github.favblue.Tests.MainLoop\(getpid())")
        app.onActivate {
            g_application_hold(gcast(app.object))
            body(app)
        }
        // A safety net so a broken bridge fails the test instead of hanging it.
        let quitter = g_timeout_add(timeoutMs, { data in
            g_application_quit(data?.assumingMemoryBound(to: GApplication.self))
            return 0
        }, UnsafeMutableRawPointer(app.object))
        _ = app.run(arguments: ["test"])
        g_source_remove(quitter)
    }

    func testMainActorTasksAndMainQueueBlocksRunWhileTheApplicationRuns() {
        MainActor.assumeIsolated {
            var taskRan = false
            var blockRan = false
            var sleptAndResumed = false
            runApplication { app in
                DispatchQueue.main.async { blockRan = true }
                Task { @MainActor in taskRan = true }
                Task { @MainActor in
                    // Real time on purpose: a sleeping task must resume inside g_application_run.
                    try? await Task.sleep(nanoseconds: 50_000_000)
                    sleptAndResumed = true
                    app.quit()
                }
            }
            XCTAssertTrue(blockRan, "DispatchQueue.main blocks run inside g_application_run")
            XCTAssertTrue(taskRan, "@MainActor tasks run inside g_application_run")
            XCTAssertTrue(sleptAndResumed, "a task that sleeps resumes on the main actor")
        }
    }

    func testLoopIsIdleWhenNothingIsQueued() {
        MainActor.assumeIsolated {
            var wakeups: UInt64 = 0
            var cpuMs = 0.0
            runApplication { app in
                // Let start-up work settle, then watch a quiet 500 ms.
                Task { @MainActor in
                    // Real time on purpose: the main loop's idle wakeups are counted over real time.
                    try? await Task.sleep(nanoseconds: 200_000_000)
                    let startWakeups = MainLoop.wakeups
                    let startCPU = Self.cpuTimeMs()
                    g_timeout_add(500, { data in
                        g_application_quit(data?.assumingMemoryBound(to: GApplication.self))
                        return 0
                    }, UnsafeMutableRawPointer(app.object))
                    // Measured from inside the quit path.
                    app.connect("shutdown") { _ in
                        wakeups = MainLoop.wakeups - startWakeups
                        cpuMs = Self.cpuTimeMs() - startCPU
                    }
                }
            }
            // All test targets share one process, so a timer left by another
            // test may wake the source a few times, more on a loaded machine (16
            // seen beside a release build); a spinning source would wake
            // thousands of times in 500 ms.
            XCTAssertLessThanOrEqual(wakeups, 50, "the main-queue source must not spin while nothing is queued")
            XCTAssertLessThan(cpuMs, 100, "a spinning loop would burn the whole 500 ms of CPU")
        }
    }

    nonisolated static func cpuTimeMs() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    }
}
