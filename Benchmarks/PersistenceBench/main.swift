// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// Favorites store benchmark, and the writer the crash test kills.
//
//   PersistenceBench                 10,000 favorites: open + list, add, rename, file size (median of 5)
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

func benchmark() async throws {
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

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "burst" {
    await burst(directory: arguments[2])
} else {
    try await benchmark()
}
