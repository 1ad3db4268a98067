// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A device's MCUmgr played here, for the client's unit tests: it answers the parameters and
/// the image upload as Zephyr's img_mgmt.c does (a part at another offset changes nothing, and
/// the answer says where the device is), a little later than asked, so several are in flight.
public final class FakeSMPDevice: SMPTransport, @unchecked Sendable {
    public let received = Feed<[UInt8]>()
    public let maximumMessage = 65_535
    private let lock = NSLock()
    private let bufferSize: Int
    private let dropping: Set<Int>
    private let stuckAt: Int?
    private let silent: Bool
    private var data: [UInt8] = []
    private var uploads = 0
    private var sizes: [Int] = []
    private var outstanding = 0
    private var most = 0

    /// `dropping`: the upload requests (counted from 0) lost on the way; `stuckAt`: an offset
    /// the device never gets past; `silent`: it never answers.
    public init(bufferSize: Int, dropping: Set<Int> = [], stuckAt: Int? = nil, silent: Bool = false) {
        self.bufferSize = bufferSize
        self.dropping = dropping
        self.stuckAt = stuckAt
        self.silent = silent
    }

    /// The image as the device wrote it.
    public var written: [UInt8] { lock.withLock { data } }
    /// Each request's length, header included.
    public var requestSizes: [Int] { lock.withLock { sizes } }
    /// The most requests the device held at once.
    public var mostInFlight: Int { lock.withLock { most } }

    public func send(_ message: [UInt8]) async throws(SMPProblem) {
        guard !silent, let request = try? SMPMessage.decode(message) else { return }
        let answer: CBOR?
        switch (request.group, request.command) {
        case (0, 6): answer = .object(["buf_size": .int(Int64(bufferSize)), "buf_count": .int(4)])
        case (1, 1): answer = upload(request, length: message.count)
        default: answer = .object(["rc": .int(8)])
        }
        guard let answer else { return }
        let reply = SMPMessage(operation: request.operation == .read ? .readResponse : .writeResponse, group: request.group,
                               sequence: request.sequence, command: request.command, body: answer)
        lock.withLock {
            outstanding += 1
            most = max(most, outstanding)
        }
        Task {
            try? await Task.sleep(for: .milliseconds(3))
            lock.withLock { outstanding -= 1 }
            received.yield(reply.bytes)
        }
    }

    private func upload(_ request: SMPMessage, length: Int) -> CBOR? {
        lock.withLock {
            sizes.append(length)
            defer { uploads += 1 }
            if dropping.contains(uploads) { return nil }
            guard let off = request.body["off"]?.int, let part = request.body["data"]?.bytes else { return .object(["rc": .int(3)]) }
            if off == 0 { data = [] }
            if Int(off) == data.count, stuckAt.map({ data.count < $0 }) ?? true {
                data += part
                if let stuckAt, data.count > stuckAt { data = Array(data.prefix(stuckAt)) }
            }
            return .object(["off": .int(Int64(data.count))])
        }
    }

    public func close() async { received.finish() }
}
