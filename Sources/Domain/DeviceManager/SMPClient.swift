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
    private var waiting: [UInt8: CheckedContinuation<SMPMessage, Error>] = [:]
    /// Bytes of an answer not yet whole.
    private var partial: [UInt8] = []
    private var reader: Task<Void, Never>?
    private var ended: SMPProblem?
    /// The SMP version to ask in: 1 (version 2 of the protocol) until a device answers in the older one.
    private var version: UInt8 = 1

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
        if let ended { throw ended }
        startReading()
        let sequence = nextSequence
        nextSequence &+= 1
        let message = SMPMessage(operation: operation, version: version, group: group, sequence: sequence, command: command, body: body)
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SMPMessage, Error>) in
                waiting[sequence] = continuation
                Task { await self.transmit(message.bytes, sequence: sequence, timeout: timeout) }
            }
        } catch let problem as SMPProblem {
            throw problem
        } catch {
            throw .unexpected("\(error)")
        }
    }

    /// Sends a request, then fails it if no answer came in time.
    private func transmit(_ bytes: [UInt8], sequence: UInt8, timeout: Duration) async {
        do {
            try await transport.send(bytes)
        } catch {
            fail(sequence, error)
            return
        }
        try? await clock.sleep(for: timeout)
        if waiting[sequence] != nil {
            // An answer half come will not be finished: what follows starts afresh.
            partial = []
            fail(sequence, .timedOut)
        }
    }

    private func fail(_ sequence: UInt8, _ problem: SMPProblem) {
        waiting.removeValue(forKey: sequence)?.resume(throwing: problem)
    }

    private func startReading() {
        guard reader == nil else { return }
        let received = transport.received
        reader = Task { [weak self] in
            for await packet in received { await self?.take(packet) }
            await self?.linkEnded()
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
            waiting.removeValue(forKey: message.sequence)?.resume(returning: message)
        }
    }

    private func linkEnded() {
        let problem = SMPProblem.disconnected(L10n.tr("The connection to the device ended."))
        ended = problem
        for (_, continuation) in waiting { continuation.resume(throwing: problem) }
        waiting = [:]
        reader = nil
    }

    /// Ends the link; requests waiting fail.
    public func close() async {
        await transport.close()
        linkEnded()
    }
}
