// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// How far a transfer is: bytes the device has taken of the whole.
public struct TransferProgress: Equatable, Sendable {
    public let done: Int
    public let total: Int
    /// The device is getting ready (erasing its slot) before it takes the first part.
    public let preparing: Bool

    public init(done: Int, total: Int, preparing: Bool) {
        self.done = done
        self.total = total
        self.preparing = preparing
    }
}

/// Uploads in parts that fill the device's buffer, with up to its buffer count in flight, the
/// device's answered offset taken as the truth (Zephyr's img_mgmt.c and fs_mgmt.c answer
/// every part with the offset they are at; a part they did not expect changes nothing).
extension SMPClient {
    /// Restarts from the same offset allowed before the transfer gives up.
    static let retriesAtOneOffset = 3

    /// img, Upload (command 1): `image` to image number `index`. The first part goes alone and
    /// waits up to `firstTimeout` (the device erases its slot first); the rest are pipelined.
    /// `sha` is the SHA-256 of the whole file, which lets the device resume and check it.
    /// `resumingAt` goes on from an offset the device took before (a link that dropped): the
    /// device's answer says where it really is, and an upload it no longer holds starts afresh.
    public func uploadImage(_ image: [UInt8], index: Int = 0, sha: [UInt8]?, upgrade: Bool = false, parameters: SMPParameters,
                            firstTimeout: Duration = .seconds(40), resumingAt: Int = 0,
                            progress: @escaping @Sendable (TransferProgress) -> Void) async throws(SMPProblem) {
        try await upload(image, .image, 1, parameters: parameters, firstTimeout: firstTimeout, resumingAt: resumingAt,
                         progress: progress) { off, data in
            var members: [CBORPair] = []
            if off == 0 {
                members.append(CBORPair(key: .text("image"), value: .int(Int64(index))))
                members.append(CBORPair(key: .text("len"), value: .int(Int64(image.count))))
                if let sha { members.append(CBORPair(key: .text("sha"), value: .bytes(sha))) }
                if upgrade { members.append(CBORPair(key: .text("upgrade"), value: .bool(true))) }
            }
            members.append(CBORPair(key: .text("off"), value: .int(Int64(off))))
            members.append(CBORPair(key: .text("data"), value: .bytes(data)))
            return .map(members)
        }
    }

    /// fs, File upload (command 0, write): `data` to the device's file at `path`.
    public func uploadFile(_ data: [UInt8], to path: String, parameters: SMPParameters,
                           progress: @escaping @Sendable (TransferProgress) -> Void) async throws(SMPProblem) {
        try await upload(data, .fileSystem, 0, parameters: parameters, firstTimeout: timeout, progress: progress) { off, chunk in
            var members = [CBORPair(key: .text("name"), value: .text(path)), CBORPair(key: .text("off"), value: .int(Int64(off))),
                           CBORPair(key: .text("data"), value: .bytes(chunk))]
            if off == 0 { members.append(CBORPair(key: .text("len"), value: .int(Int64(data.count)))) }
            return .map(members)
        }
    }

    /// fs, File download (command 0, read): the device's file at `path`, part by part.
    public func downloadFile(_ path: String, limit: Int = 16 << 20,
                             progress: @escaping @Sendable (TransferProgress) -> Void) async throws(SMPProblem) -> [UInt8] {
        var data: [UInt8] = []
        var total: Int?
        while total.map({ data.count < $0 }) ?? true {
            try checkCancelled()
            let answer = try await request(.read, .fileSystem, 0, .object(["name": .text(path), "off": .int(Int64(data.count))]))
            if let len = answer.body["len"]?.int {
                guard len >= 0, len <= limit else {
                    throw .unexpected(L10n.format("The file is {}, more than FavBlue fetches ({}).", Formats.bytes(Int(clamping: len)),
                                                  Formats.bytes(limit)))
                }
                total = Int(len)
            }
            guard answer.body["off"]?.int == Int64(data.count), let part = answer.body["data"]?.bytes else {
                throw .unexpected(L10n.tr("The device sent a part of the file from another place."))
            }
            if part.isEmpty, total == nil { break }
            guard !part.isEmpty else { throw .unexpected(L10n.tr("The device stopped sending the file before its end.")) }
            data += part
            guard total != nil else { throw .unexpected(L10n.tr("The device did not say how long the file is.")) }
            progress(TransferProgress(done: data.count, total: total ?? data.count, preparing: false))
        }
        return data
    }

    private func checkCancelled() throws(SMPProblem) {
        if Task.isCancelled { throw .cancelled }
    }

    /// The most data one part may carry: the request, header and CBOR included, fills the
    /// device's buffer and what the transport carries (smpclient's `_maximize_upload_packet`).
    func partSize(at off: Int, _ parameters: SMPParameters, total: Int, body: (Int, [UInt8]) -> CBOR) -> Int {
        let room = min(parameters.bufferSize, maximumMessage)
        // The part's own fields (the first carries the length and hash too), its offset as
        // long as the file's could be, and a byte string head of three bytes (up to 65,535).
        let overhead = SMPMessage.headerLength + body(off == 0 ? 0 : total, []).encoded.count + 2
        return max(1, min(room - overhead, 65_535))
    }

    private func upload(_ data: [UInt8], _ group: SMPGroup, _ command: UInt8, parameters: SMPParameters, firstTimeout: Duration,
                        resumingAt resume: Int = 0, progress: @escaping @Sendable (TransferProgress) -> Void,
                        body: @escaping @Sendable (Int, [UInt8]) -> CBOR) async throws(SMPProblem) {
        let first = partSize(at: 0, parameters, total: data.count, body: body)
        let later = partSize(at: 1, parameters, total: data.count, body: body)
        func end(_ off: Int) -> Int { min(off + (off == 0 ? first : later), data.count) }
        func part(_ off: Int) -> CBOR { body(off, Array(data[off..<end(off)])) }
        func offset(_ answer: SMPMessage) throws(SMPProblem) -> Int {
            if let error = answer.error { throw .device(error) }
            guard let off = answer.body["off"]?.int, off >= 0, off <= Int64(data.count) else {
                throw .unexpected(L10n.tr("The device's answer gives no offset to go on from."))
            }
            return Int(off)
        }
        var at = 0
        if resume > 0, resume < data.count {
            // Where the device stopped, as far as FavBlue knows; its answer says where it is.
            at = try offset(try await exchange(.write, group.rawValue, command, part(resume), timeout: timeout))
        }
        if at == 0 {
            progress(TransferProgress(done: 0, total: data.count, preparing: true))
            // The first part alone: the device erases before it answers.
            at = try offset(try await exchange(.write, group.rawValue, command, part(0), timeout: firstTimeout))
        }
        progress(TransferProgress(done: at, total: data.count, preparing: false))
        var restarts = 0, lastRestart = -1
        // One of the device's buffers carries the answer being made: Zephyr drops a request that
        // finds none free (its UDP server with two buffers takes one request at a time).
        let window = max(1, parameters.bufferCount - 1)
        while at < data.count {
            try checkCancelled()
            let (reached, inOrder) = try await pipeline(from: at, total: data.count, end: end, window: window, group: group,
                                                        command: command, part: part, offset: offset, progress: progress)
            if !inOrder {
                // The device asked for another offset: go on from where it says it is, a few times at most.
                restarts = reached == lastRestart ? restarts + 1 : 0
                lastRestart = reached
                if restarts >= Self.retriesAtOneOffset {
                    throw .unexpected(L10n.format("The device keeps asking for the same part again; the upload stopped at {} of {}.",
                                                  Formats.bytes(reached), Formats.bytes(data.count)))
                }
            }
            at = reached
        }
    }

    /// Sends parts from `start` with up to `window` in flight while each answer says the offset
    /// expected. Returns where the device is after the last answer, and whether all came in order.
    /// Answers are read in the order their parts went out, whatever order they came in (UDP may
    /// swap two datagrams): the device handles parts in that order, so its last answer is its truth.
    private func pipeline(from start: Int, total: Int, end: (Int) -> Int, window: Int, group: SMPGroup, command: UInt8,
                          part: (Int) -> CBOR, offset: (SMPMessage) throws(SMPProblem) -> Int,
                          progress: @escaping @Sendable (TransferProgress) -> Void) async throws(SMPProblem) -> (Int, Bool) {
        var next = start
        var reached = start
        var inOrder = true
        // Each part in flight: its request's sequence and the offset the device should answer.
        var inFlight: [(sequence: UInt8, expected: Int)] = []
        // Answers still to come when the transfer fails are not kept.
        defer { for sent in inFlight { forget(sent.sequence) } }
        func send() throws(SMPProblem) {
            let off = next
            next = end(off)
            inFlight.append((try post(.write, group.rawValue, command, part(off), timeout: timeout), next))
        }
        while inFlight.count < window, next < total { try send() }
        while !inFlight.isEmpty {
            let (sequence, expected) = inFlight.removeFirst()
            do throws(SMPProblem) {
                let answer = try await self.answer(to: sequence)
                if let error = answer.error, error.refusesOffset {
                    // A part the device did not expect (one before it was lost): from the last it took.
                    inOrder = false
                } else {
                    let off = try offset(answer)
                    if inOrder { reached = off }
                    if off != expected { inOrder = false }
                }
            } catch .timedOut where !inFlight.isEmpty || !inOrder || next > reached {
                // A part lost on the way: the ones after it are refused; go on from the last taken.
                inOrder = false
            }
            progress(TransferProgress(done: max(reached, 0), total: total, preparing: false))
            if inOrder, !Task.isCancelled { while inFlight.count < window, next < total { try send() } }
        }
        return (reached, inOrder)
    }
}
