// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// Store benchmarks, and the writer the crash test kills.
//
//   PersistenceBench                 both figures below
//   PersistenceBench favorites       10,000 favorites: open + list, add, rename, file size (median of 5)
//   PersistenceBench chat            opening a chat of 10,000 stored messages: count + the last page of 50
//   PersistenceBench burst DIR       writes favorites until killed, printing each id once committed

import Domain
import Foundation
import Persistence

func device(_ n: Int) -> DeviceID {
    DeviceID(octets: [0x10, 0x20, UInt8((n >> 24) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)],
             kind: .lePublic)
}

func burst(directory: String) async {
    let store = StoreFactory.open(.sqlite, directory: directory)
    let cases = FavoritesUseCases(repository: store.favorites)
    var n = 0
    while true {
        do {
            try await cases.add(device(n), name: "Device \(n)", nickname: "Nick \(n)")
            // Printed only after the transaction committed.
            FileHandle.standardOutput.write(Data((device(n).storageKey + "\n").utf8))
        } catch {
            FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
        }
        n += 1
    }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func favoritesBenchmark() async throws {
    let count = 10_000
    var openList: [Double] = []
    var add: [Double] = []
    var rename: [Double] = []
    var size = 0
    for _ in 0..<5 {
        let directory = NSTemporaryDirectory() + "favblue-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = StoreFactory.open(.sqlite, directory: directory)
            let cases = FavoritesUseCases(repository: store.favorites)
            for n in 0..<count { try await cases.add(device(n), name: "Device \(n)", nickname: n % 3 == 0 ? "Nick \(n)" : "") }
        }
        var start = Date()
        let store = StoreFactory.open(.sqlite, directory: directory)
        let cases = FavoritesUseCases(repository: store.favorites)
        let listed = try await cases.list()
        precondition(listed.count == count)
        openList.append(Date().timeIntervalSince(start) * 1000)
        start = Date()
        try await cases.add(device(count + 1), name: "New", nickname: "Fresh")
        add.append(Date().timeIntervalSince(start) * 1000)
        start = Date()
        try await cases.rename(device(5), to: "Renamed")
        rename.append(Date().timeIntervalSince(start) * 1000)
        let path = directory + "/" + StoreFactory.fileName
        size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            + ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0)
    }
    print("favorites: \(count)")
    print(String(format: "open store + sorted list: %.1f ms (median of 5)", median(openList)))
    print(String(format: "add one: %.2f ms", median(add)))
    print(String(format: "rename one: %.2f ms", median(rename)))
    print(String(format: "database + WAL size: %.2f MiB", Double(size) / 1_048_576))
}

/// What a chat page does on open, at the storage level: the count, then the newest page.
func chatBenchmark() async throws {
    let count = 10_000
    let pageSize = 50
    let peer = device(1)
    let directory = NSTemporaryDirectory() + "favblue-bench-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    do {
        let chats = StoreFactory.open(.sqlite, directory: directory).chats
        // Half a minute apart, both ways, in batches as a busy chat's writes would come.
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        for batch in stride(from: 0, to: count, by: 1_000) {
            try await chats.append((batch..<batch + 1_000).map { n in
                ChatMessage(device: peer, direction: n % 2 == 0 ? .outgoing : .incoming, body: .text("msg \(n)"),
                            time: start.addingTimeInterval(Double(n) * 30), delivery: .sent)
            })
        }
    }
    /// Milliseconds for count + last page; checks the page is the newest one.
    func openChat(_ chats: ChatRepository) async throws -> Double {
        let clock = ContinuousClock()
        let begin = clock.now
        let total = try await chats.count(for: peer)
        let page = try await chats.page(for: peer, offset: max(0, total - pageSize), limit: pageSize)
        let elapsed = clock.now - begin
        precondition(total == count && page.count == pageSize && page.last?.body == .text("msg \(count - 1)"))
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
    // First open right after the store opens (fresh connections, cold statement cache), then repeated.
    var first: [Double] = []
    var again: [Double] = []
    for _ in 0..<5 {
        let chats = StoreFactory.open(.sqlite, directory: directory).chats
        first.append(try await openChat(chats))
        for _ in 0..<20 { again.append(try await openChat(chats)) }
    }
    print("chat messages: \(count), one device; page of \(pageSize)")
    print(String(format: "open chat (count + last page), first after the store opened: %.2f ms (median of 5)", median(first)))
    print(String(format: "open chat again: %.2f ms (median of 100), p95 %.2f ms",
                 median(again), again.sorted()[Int((Double(again.count) * 0.95).rounded(.up)) - 1]))
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "burst" {
    await burst(directory: arguments[2])
} else {
    let which = arguments.count > 1 ? arguments[1] : "all"
    if which == "all" || which == "favorites" { try await favoritesBenchmark() }
    if which == "all" || which == "chat" { try await chatBenchmark() }
}
