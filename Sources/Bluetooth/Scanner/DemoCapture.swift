// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The capture behind the `demo` source: installed as `<prefix>/share/favblue/demo.btsnoop`
/// next to the binary's `bin`, or `data/demo.btsnoop` in the source tree for development builds.
public enum DemoCapture {
    public static func path() -> String? {
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let exe = URL(fileURLWithPath: link ?? CommandLine.arguments[0])
        let candidates = [
            exe.deletingLastPathComponent().deletingLastPathComponent().appending(path: "share/favblue/demo.btsnoop").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appending(path: "data/demo.btsnoop").path,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}
