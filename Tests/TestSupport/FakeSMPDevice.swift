// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A device's MCUmgr played here, for the client's unit tests: it answers the parameters and
/// the image upload as Zephyr's img_mgmt.c does (a part at another offset changes nothing, and
/// the answer says where the device is), a little later than asked, so several are in flight.
/// `reordering` swaps pairs of upload answers, as UDP may: a middle part's answer waits for the
/// next answer (the client keeps two parts or more in flight).
public final class FakeSMPDevice: SMPTransport, @unchecked Sendable {
    public let received = Feed<[UInt8]>()
    public let maximumMessage = 65_535
    private let lock = NSLock()
    private let bufferSize: Int
    private let dropping: Set<Int>
    private let stuckAt: Int?
    private let silent: Bool
    private let reordering: Bool
    /// An upload answer held back until the next one has gone.
    private var held: [UInt8]?
    /// The image's length, as its first part says.
    private var total: Int?
    private var swapped = 0
    private var offs: [Int] = []
    private let board: FakeSMPBoard?
    private var data: [UInt8] = []
    private var uploads = 0
    private var sizes: [Int] = []
    private var outstanding = 0
    private var most = 0

    /// `dropping`: the upload requests (counted from 0) lost on the way; `stuckAt`: an offset
    /// the device never gets past; `silent`: it never answers.
    public init(bufferSize: Int, dropping: Set<Int> = [], stuckAt: Int? = nil, silent: Bool = false, reordering: Bool = false,
                board: FakeSMPBoard? = nil) {
        self.board = board
        self.reordering = reordering
        self.bufferSize = bufferSize
        self.dropping = dropping
        self.stuckAt = stuckAt
        self.silent = silent
    }

    /// The image as the device wrote it.
    public var written: [UInt8] { lock.withLock { data } }
    /// Each request's length, header included.
    public var requestSizes: [Int] { lock.withLock { sizes } }
    /// Each upload request's offset, in the order they came.
    public var offsets: [Int] { lock.withLock { offs } }
    /// How many answers went out after the one asked after them.
    public var answersSwapped: Int { lock.withLock { swapped } }
    /// The most requests the device held at once.
    public var mostInFlight: Int { lock.withLock { most } }

    public func send(_ message: [UInt8]) async throws(SMPProblem) {
        guard !silent, let request = try? SMPMessage.decode(message) else { return }
        let answer: CBOR?
        switch (request.group, request.command) {
        case (0, 6): answer = .object(["buf_size": .int(Int64(bufferSize)), "buf_count": .int(4)])
        case (1, 1): answer = upload(request, length: message.count)
        case (1, 0) where board != nil: answer = request.operation == .read ? board?.images() : board?.set(request.body)
        case (0, 5) where board != nil:
            answer = .map([])
            board?.reset()
        default: answer = .object(["rc": .int(8)])
        }
        guard let answer else { return }
        let reply = SMPMessage(operation: request.operation == .read ? .readResponse : .writeResponse, group: request.group,
                               sequence: request.sequence, command: request.command, body: answer)
        // Decided here, in the order the requests came: the last part's answer always frees one held.
        let (now, earlier): ([UInt8]?, [UInt8]?) = lock.withLock {
            outstanding += 1
            most = max(most, outstanding)
            guard reordering, request.group == 1, request.command == 1 else { return (reply.bytes, nil) }
            if let earlier = held {
                held = nil
                swapped += 1
                return (reply.bytes, earlier)
            }
            // Neither the first part (the client waits for it alone) nor the last (none follows).
            guard let off = request.body["off"]?.int, let part = request.body["data"]?.bytes, let total,
                  off > 0, Int(off) + part.count < total else { return (reply.bytes, nil) }
            held = reply.bytes
            return (nil, nil)
        }
        guard let now else { return }
        let answers = [now] + (earlier.map { [$0] } ?? [])
        Task {
            try? await Task.sleep(for: .milliseconds(3))
            lock.withLock { outstanding -= answers.count }
            for bytes in answers { received.yield(bytes) }
        }
    }

    private func upload(_ request: SMPMessage, length: Int) -> CBOR? {
        lock.withLock {
            sizes.append(length)
            defer { uploads += 1 }
            if dropping.contains(uploads) { return nil }
            guard let off = request.body["off"]?.int, let part = request.body["data"]?.bytes else { return .object(["rc": .int(3)]) }
            offs.append(Int(off))
            if off == 0 {
                data = []
                total = request.body["len"]?.int.map(Int.init)
            }
            if Int(off) == data.count, stuckAt.map({ data.count < $0 }) ?? true {
                data += part
                if let stuckAt, data.count > stuckAt { data = Array(data.prefix(stuckAt)) }
                if let board, let image = try? MCUbootImage.read(data) { board.spare = (image.version.description, image.hash ?? []) }
            }
            return .object(["off": .int(Int64(data.count))])
        }
    }

    public func close() async { received.finish() }
}

/// A board behind `FakeSMPDevice`s, one a connection: its two slots, the test and confirm marks,
/// and a restart that swaps in an image marked for a test (unless its bootloader refuses it) and
/// takes `restartConnects` refused connections to come back, as MCUboot's swap does.
public final class FakeSMPBoard: @unchecked Sendable {
    private let lock = NSLock()
    public var running: (version: String, hash: [UInt8]) = ("1.0.0", [UInt8](repeating: 1, count: 32))
    public var spare: (version: String, hash: [UInt8])?
    /// Whether the bootloader takes the image marked for a test at the restart.
    public var takesImage = true
    public var restartConnects = 2
    public private(set) var confirmed = true
    public private(set) var restarts = 0
    private var test = false
    private var down = 0

    public init() {}

    /// A client on a new connection; refused while the board restarts.
    public func connect() throws(SMPProblem) -> SMPClient {
        let refused = lock.withLock { () -> Bool in
            guard down > 0 else { return false }
            down -= 1
            return true
        }
        if refused { throw .timedOut }
        return SMPClient(transport: FakeSMPDevice(bufferSize: 512, board: self), timeout: .milliseconds(500))
    }

    func images() -> CBOR {
        lock.withLock {
            var slots: [CBOR] = [.object(["slot": .int(0), "version": .text(running.version), "hash": .bytes(running.hash),
                                          "active": .bool(true), "confirmed": .bool(confirmed), "bootable": .bool(true)])]
            if let spare {
                slots.append(.object(["slot": .int(1), "version": .text(spare.version), "hash": .bytes(spare.hash),
                                      "pending": .bool(test), "bootable": .bool(true)]))
            }
            return .object(["images": .array(slots)])
        }
    }

    func set(_ body: CBOR) -> CBOR {
        lock.withLock {
            if body["confirm"]?.bool == true, body["hash"] == nil { confirmed = true }
            if let hash = body["hash"]?.bytes, hash == spare?.hash { test = true }
        }
        return images()
    }

    func reset() {
        lock.withLock {
            restarts += 1
            down = restartConnects
            if test, takesImage, let spare {
                (running, self.spare) = ((spare.version, spare.hash), (running.version, running.hash))
                confirmed = false
            }
            test = false
        }
    }
}
