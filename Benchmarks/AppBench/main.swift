// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # favblue-bench
//
// FavBlue as users get it, with the benchmarks' drivers added: each starts when its
// variable is set (FAVBLUE_BENCHMARK_SECONDS, FAVBLUE_CHAT_BENCHMARK, FAVBLUE_GATT_BENCHMARK,
// FAVBLUE_PERIPHERAL_BENCHMARK, FAVBLUE_DM_BENCHMARK), drives the shown window and quits. Built only by the
// benchmarks (swift build -c release --product favblue-bench), never installed.

import AppShell
import Foundation

/// The drivers that run, kept for as long as the app runs.
@MainActor var drivers: [AnyObject] = []

exit(AppMain.run { app in
    app.onShown = { shown in
        let environment = ProcessInfo.processInfo.environment
        if let scanner = ScannerBenchmark(environment: environment, window: shown.window, scanner: shown.scanner, quit: shown.quit) {
            scanner.sourceMessages = shown.brokerMessages
            scanner.start()
            drivers.append(scanner)
        }
        if let chat = ChatBenchmark(environment: environment, window: shown.window, chats: shown.chats, quit: shown.quit) {
            chat.start()
            drivers.append(chat)
        }
        if let gatt = GATTBenchmark(environment: environment, window: shown.window, sessions: shown.sessions,
                                    browser: shown.browser, quit: shown.quit) {
            gatt.start()
            drivers.append(gatt)
        }
        if let manager = DeviceManagerBenchmark(environment: environment, window: shown.window, sessions: shown.sessions,
                                                manager: shown.deviceManager, quit: shown.quit) {
            manager.start()
            drivers.append(manager)
        }
        if let peripheral = PeripheralBenchmark(environment: environment, window: shown.window, role: shown.peripheral,
                                                quit: shown.quit) {
            peripheral.start()
            drivers.append(peripheral)
        }
    }
})
