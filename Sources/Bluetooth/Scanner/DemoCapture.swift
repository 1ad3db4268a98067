// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The files behind the `demo` source: installed in `<prefix>/share/favblue` next to the binary's
/// `bin`, or in `data/` of the source tree for development builds. The capture it replays, and
/// the newer image its board takes.
public enum DemoCapture {
    public static func path() -> String? { demoFile("demo.btsnoop") }

    /// The folder that holds the demo board's newer firmware image (`demo-board-1.1.0.bin`).
    public static func firmwareFolder() -> String? {
        demoFile("demo-board-1.1.0.bin").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    private static func demoFile(_ name: String) -> String? {
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let exe = URL(fileURLWithPath: link ?? CommandLine.arguments[0])
        let candidates = [
            exe.deletingLastPathComponent().deletingLastPathComponent().appending(path: "share/favblue/\(name)").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appending(path: "data/\(name)").path,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}
