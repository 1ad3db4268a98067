// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The groups a device may or may not answer: which it does, its statistics, its shell and its files.
extension DeviceManager {
    /// One statistics group and its counters, in the device's order.
    public struct StatisticsGroup: Equatable, Sendable {
        public let name: String
        public let counters: [Counter]
    }

    public struct Counter: Equatable, Sendable {
        public let name: String
        public let value: Int64
    }

    /// A shell command run and what it printed.
    public struct ShellRun: Equatable, Sendable {
        public let command: String
        public let output: String
        public let code: Int64?
        /// Why it did not run, in words.
        public let problem: String?
    }

    /// A file going to or coming from the device.
    public struct FileTransfer: Equatable, Sendable {
        public let path: String
        public let upload: Bool
        public internal(set) var progress: TransferProgress
        /// What came of it, once over: done (nil problem) or why not.
        public internal(set) var over = false
        public internal(set) var problem: String?
    }

    /// Whether the device offers a group: its answer to a harmless request of it is anything but
    /// MCUmgr's "not supported" (a group the device lacks is not an error).
    static func answers(_ client: SMPClient, _ operation: SMPMessage.Operation, _ group: SMPGroup, _ command: UInt8,
                        _ body: CBOR) async throws(SMPProblem) -> Bool {
        do {
            _ = try await client.request(operation, group, command, body)
            return true
        } catch .device(let error) {
            return !(error.code == 8 && !error.groupCode)
        }
    }

    /// What `body` gets, or nil where the device lacks the group it asks.
    static func unlessAbsent<T>(_ body: () async throws(SMPProblem) -> T) async throws(SMPProblem) -> T? {
        do { return try await body() } catch .device(let error) where error.code == 8 && !error.groupCode { return nil }
    }

    /// Every statistics group with its counters; nil where the device has no statistics group.
    static func statistics(_ client: SMPClient) async throws(SMPProblem) -> [StatisticsGroup]? {
        let names: [String]
        do { names = try await client.statisticsGroups() } catch .device(let error) where error.code == 8 && !error.groupCode {
            return nil
        }
        var groups: [StatisticsGroup] = []
        for name in names {
            let counters = (try? await client.statistics(name)) ?? []
            groups.append(StatisticsGroup(name: name, counters: counters.map { Counter(name: $0.name, value: $0.value) }))
        }
        return groups
    }

    /// Reads the statistics again.
    public func refreshStatistics() {
        perform(.statistics) { [weak self] client throws(SMPProblem) in
            let groups = try await Self.statistics(client)
            self?.statistics = groups
            return nil
        }
    }

    /// shell, Execute: `line` split as a shell splits words ("quotes" keep spaces), run on the device.
    public func runShell(_ line: String) {
        let words = Self.words(line)
        guard !words.isEmpty else { return }
        perform(.shell) { [weak self] client throws(SMPProblem) in
            do throws(SMPProblem) {
                let (output, code) = try await client.shell(words)
                self?.ran(ShellRun(command: line, output: output, code: code, problem: nil))
            } catch {
                self?.ran(ShellRun(command: line, output: "", code: nil, problem: error.message))
            }
            return nil
        }
    }

    func ran(_ run: ShellRun) {
        shellRuns.append(run)
        if shellRuns.count > Self.shellLimit { shellRuns.removeFirst(shellRuns.count - Self.shellLimit) }
    }

    /// Splits a command line into words: spaces part them, quotes (" or ') keep them together.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var started = false
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                started = true
            } else if c.isWhitespace {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(c)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        return words
    }

    /// fs, File download: the device's file at `path`, handed to `save` once whole.
    public func downloadFile(_ path: String, save: @escaping @MainActor ([UInt8]) -> String?) {
        transfer = FileTransfer(path: path, upload: false, progress: TransferProgress(done: 0, total: 0, preparing: true))
        perform(.files) { [weak self] client throws(SMPProblem) in
            do throws(SMPProblem) {
                let data = try await client.downloadFile(path) { p in Task { @MainActor in self?.moved(p) } }
                self?.transfer?.progress = TransferProgress(done: data.count, total: data.count, preparing: false)
                self?.transferEnded(save(data))
            } catch {
                self?.transferEnded(error.message)
            }
            return nil
        }
    }

    /// fs, File upload: `data` to the device's file at `path`.
    public func uploadFile(_ data: [UInt8], to path: String) {
        transfer = FileTransfer(path: path, upload: true, progress: TransferProgress(done: 0, total: data.count, preparing: true))
        perform(.files) { [weak self] client throws(SMPProblem) in
            do throws(SMPProblem) {
                let parameters = try await client.parameters()
                try await client.uploadFile(data, to: path, parameters: parameters) { p in Task { @MainActor in self?.moved(p) } }
                self?.transferEnded(nil)
            } catch {
                self?.transferEnded(error.message)
            }
            return nil
        }
    }

    func moved(_ progress: TransferProgress) {
        guard transfer?.over == false else { return }
        transfer?.progress = progress
        observers.notify()
    }

    func transferEnded(_ problem: String?) {
        transfer?.over = true
        transfer?.problem = problem
    }
}
