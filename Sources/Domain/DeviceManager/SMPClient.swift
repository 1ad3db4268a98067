// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// MCUmgr's SMP client over any `SMPTransport`: numbers each request, reassembles answers by
/// their headers' lengths, matches each to its request by sequence, and gives up on one after
/// its timeout on the injected clock. Several requests may be in flight at once (the upload
/// keeps a window of them); answers may come in any order.
public actor SMPClient {
    // MARK: Borrowed
    private let transport: SMPTransport
    private let clock: any Clock<Duration>

    // MARK: Owned
    /// How long an answer may take, unless a request says otherwise.
    public let timeout: Duration
    private var nextSequence: UInt8 = 0
    /// Each request sent and not yet answered: who waits for it, or its answer if it came first.
    private var pending: [UInt8: Pending] = [:]
    /// Bytes of an answer not yet whole.
    private var partial: [UInt8] = []
    private var reader: Task<Void, Never>?
    /// Requests go out one after another, in the order they were made.
    private var outbox: AsyncStream<(UInt8, [UInt8])>.Continuation?
    private var sender: Task<Void, Never>?
    private var ended: SMPProblem?
    /// The SMP version to ask in: 1 (version 2 of the protocol) until a device answers in the older one.
    private var version: UInt8 = 1

    private struct Pending {
        var waiter: CheckedContinuation<SMPMessage, Error>?
        var outcome: Result<SMPMessage, SMPProblem>?
    }

    public init(transport: SMPTransport, clock: any Clock<Duration> = ContinuousClock(), timeout: Duration = .seconds(5)) {
        self.transport = transport
        self.clock = clock
        self.timeout = timeout
    }

    /// The longest request the transport carries, header included.
    public var maximumMessage: Int { transport.maximumMessage }

    /// Sends a request and waits for its answer; a device's error is thrown in words.
    public func request(_ operation: SMPMessage.Operation, _ group: SMPGroup, _ command: UInt8, _ body: CBOR = .map([]),
                        timeout: Duration? = nil) async throws(SMPProblem) -> SMPMessage {
        let answer = try await exchange(operation, group.rawValue, command, body, timeout: timeout ?? self.timeout)
        if let error = answer.error { throw .device(error) }
        return answer
    }

    /// The same, without reading the answer's error: for the upload, which reads "off" first.
    func exchange(_ operation: SMPMessage.Operation, _ group: UInt16, _ command: UInt8, _ body: CBOR,
                  timeout: Duration) async throws(SMPProblem) -> SMPMessage {
        try await answer(to: try post(operation, group, command, body, timeout: timeout))
    }

    /// Queues a request to go out after those posted before it; returns its sequence number.
    /// Its answer is kept until `answer(to:)` asks, or its timeout passes.
    func post(_ operation: SMPMessage.Operation, _ group: UInt16, _ command: UInt8, _ body: CBOR,
              timeout: Duration) throws(SMPProblem) -> UInt8 {
        if let ended { throw ended }
        start()
        let sequence = nextSequence
        nextSequence &+= 1
        let message = SMPMessage(operation: operation, version: version, group: group, sequence: sequence, command: command, body: body)
        pending[sequence] = Pending()
        outbox?.yield((sequence, message.bytes))
        let clock = self.clock
        Task { [weak self] in
            try? await clock.sleep(for: timeout)
            await self?.expire(sequence)
        }
        return sequence
    }

    /// Waits for the answer to the request `sequence`.
    func answer(to sequence: UInt8) async throws(SMPProblem) -> SMPMessage {
        if let outcome = pending[sequence]?.outcome {
            pending[sequence] = nil
            return try outcome.get()
        }
        guard pending[sequence] != nil else { throw ended ?? .timedOut }
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SMPMessage, Error>) in
                pending[sequence]?.waiter = continuation
            }
        } catch let problem as SMPProblem {
            throw problem
        } catch {
            throw .unexpected("\(error)")
        }
    }

    /// Drops the request `sequence`, which nobody waits for: its answer, if one comes, is ignored.
    func forget(_ sequence: UInt8) {
        pending[sequence] = nil
    }

    /// Settles the request `sequence`: its waiter hears now, or the outcome waits for it.
    private func settle(_ sequence: UInt8, _ outcome: Result<SMPMessage, SMPProblem>) {
        guard var entry = pending[sequence], entry.outcome == nil else { return }
        if let waiter = entry.waiter {
            pending[sequence] = nil
            waiter.resume(with: outcome.mapError { $0 as Error })
        } else {
            entry.outcome = outcome
            pending[sequence] = entry
        }
    }

    private func expire(_ sequence: UInt8) {
        guard let entry = pending[sequence], entry.outcome == nil else { return }
        // An answer half come will not be finished: what follows starts afresh.
        partial = []
        settle(sequence, .failure(.timedOut))
    }

    private func start() {
        guard reader == nil else { return }
        let received = transport.received
        reader = Task { [weak self] in
            for await packet in received { await self?.take(packet) }
            await self?.linkEnded()
        }
        let (stream, continuation) = AsyncStream<(UInt8, [UInt8])>.makeStream()
        outbox = continuation
        let transport = self.transport
        sender = Task { [weak self] in
            for await (sequence, bytes) in stream {
                do throws(SMPProblem) { try await transport.send(bytes) } catch { await self?.settle(sequence, .failure(error)) }
            }
        }
    }

    /// Bytes from the device: every whole answer in them goes to its request.
    private func take(_ packet: [UInt8]) {
        partial += packet
        while let length = SMPMessage.announcedLength(partial[...]), partial.count >= length {
            let bytes = Array(partial.prefix(length))
            partial.removeFirst(length)
            guard let message = try? SMPMessage.decode(bytes) else { continue }
            guard message.operation == .readResponse || message.operation == .writeResponse else { continue }
            // A device that answers in SMP version 1 is asked in it from now on.
            if message.version == 0 { version = 0 }
            settle(message.sequence, .success(message))
        }
    }

    private func linkEnded() {
        let problem = SMPProblem.disconnected(L10n.tr("The connection to the device ended."))
        ended = problem
        for sequence in Array(pending.keys) { settle(sequence, .failure(problem)) }
        outbox?.finish()
        reader = nil
    }

    /// Ends the link; requests waiting fail.
    public func close() async {
        await transport.close()
        linkEnded()
    }
}
