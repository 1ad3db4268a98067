// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One slot as the image group reports it (smp_group_1.rst, "State of images").
public struct ImageSlot: Equatable, Sendable {
    public let image: Int
    public let slot: Int
    public let version: String
    public let hash: [UInt8]
    public let bootable: Bool
    /// Will run at the next restart: once (test), or from then on (permanent).
    public let pending: Bool
    public let confirmed: Bool
    public let active: Bool
    public let permanent: Bool
}

/// What a device says of its MCUmgr: the buffer a request must fit and how many it holds at once.
public struct SMPParameters: Equatable, Sendable {
    public let bufferSize: Int
    public let bufferCount: Int

    public init(bufferSize: Int, bufferCount: Int) {
        self.bufferSize = bufferSize
        self.bufferCount = bufferCount
    }
}

/// The requests of each group FavBlue uses (Zephyr's smp_groups documents).
extension SMPClient {
    /// os, Echo (command 0): the text back, and how long the round trip took.
    public func echo(_ text: String, clock: ContinuousClock = ContinuousClock()) async throws(SMPProblem) -> (text: String, roundTrip: Duration) {
        let start = clock.now
        let answer = try await request(.write, .os, 0, .object(["d": .text(text)]))
        guard let back = answer.body["r"]?.text else { throw .unexpected(L10n.tr("The device's echo has no text.")) }
        return (back, clock.now - start)
    }

    /// os, Reset (command 5): the device restarts; it answers first.
    public func reset() async throws(SMPProblem) {
        _ = try await request(.write, .os, 5)
    }

    /// os, MCUmgr parameters (command 6).
    public func parameters() async throws(SMPProblem) -> SMPParameters {
        let answer = try await request(.read, .os, 6)
        guard let size = answer.body["buf_size"]?.int, let count = answer.body["buf_count"]?.int, size > 0, count > 0 else {
            throw .unexpected(L10n.tr("The device did not say its MCUmgr buffers."))
        }
        return SMPParameters(bufferSize: Int(clamping: size), bufferCount: Int(clamping: count))
    }

    /// os, Bootloader information (command 8): its name ("MCUboot"), and its mode where it says one.
    public func bootloader() async throws(SMPProblem) -> (name: String, mode: Int64?) {
        let answer = try await request(.read, .os, 8)
        guard let name = answer.body["bootloader"]?.text else { throw .unexpected(L10n.tr("The device did not name its bootloader.")) }
        var mode: Int64?
        if name == "MCUboot" { mode = (try? await request(.read, .os, 8, .object(["query": .text("mode")])))?.body["mode"]?.int }
        return (name, mode)
    }

    /// img, State of images (command 0, read).
    public func images() async throws(SMPProblem) -> [ImageSlot] {
        Self.slots(try await request(.read, .image, 0))
    }

    /// img, Set state (command 0, write): test `hash` at the next restart, or confirm it (nil: the running one).
    public func setImage(_ hash: [UInt8]?, confirm: Bool) async throws(SMPProblem) -> [ImageSlot] {
        var members: [CBORPair] = [CBORPair(key: .text("confirm"), value: .bool(confirm))]
        if let hash { members.insert(CBORPair(key: .text("hash"), value: .bytes(hash)), at: 0) }
        return Self.slots(try await request(.write, .image, 0, .map(members)))
    }

    /// img, Image erase (command 5): the spare slot, or `slot`.
    public func eraseImage(slot: Int? = nil) async throws(SMPProblem) {
        _ = try await request(.write, .image, 5, slot.map { .object(["slot": .int(Int64($0))]) } ?? .map([]), timeout: .seconds(30))
    }

    static func slots(_ answer: SMPMessage) -> [ImageSlot] {
        (answer.body["images"]?.array ?? []).compactMap { s in
            guard let slot = s["slot"]?.int else { return nil }
            return ImageSlot(image: Int(clamping: s["image"]?.int ?? 0), slot: Int(clamping: slot), version: s["version"]?.text ?? "",
                             hash: s["hash"]?.bytes ?? [], bootable: s["bootable"]?.bool ?? false, pending: s["pending"]?.bool ?? false,
                             confirmed: s["confirmed"]?.bool ?? false, active: s["active"]?.bool ?? false,
                             permanent: s["permanent"]?.bool ?? false)
        }
    }

    /// stat, Group list (command 1).
    public func statisticsGroups() async throws(SMPProblem) -> [String] {
        (try await request(.read, .statistics, 1).body["stat_list"]?.array ?? []).compactMap(\.text)
    }

    /// stat, Group data (command 0): each counter, in the order the device sends them.
    public func statistics(_ group: String) async throws(SMPProblem) -> [(name: String, value: Int64)] {
        let answer = try await request(.read, .statistics, 0, .object(["name": .text(group)]))
        return (answer.body["fields"]?.pairs ?? []).compactMap { p in
            guard let name = p.key.text, let value = p.value.int else { return nil }
            return (name, value)
        }
    }

    /// shell, Execute (command 0): what the command printed, and its return code.
    public func shell(_ arguments: [String]) async throws(SMPProblem) -> (output: String, code: Int64) {
        let answer = try await request(.write, .shell, 0, .object(["argv": .array(arguments.map { .text($0) })]))
        return (answer.body["o"]?.text ?? "", answer.body["ret"]?.int ?? 0)
    }
}
