// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Runs a command-line tool to the end and returns its exit status, stdout and stderr;
/// `environment` is added to this process's own.
public func runTool(_ executable: String, _ arguments: [String],
                    environment: [String: String] = [:], input: String? = nil) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let keyboard = Pipe()
    if input != nil { process.standardInput = keyboard }
    try process.run()
    if let input {
        keyboard.fileHandleForWriting.write(Data(input.utf8))
        try keyboard.fileHandleForWriting.close()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// The `favblue-scan` built beside the test bundle.
public var scanToolPath: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "favblue-scan").path
}
