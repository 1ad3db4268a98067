// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Why an ATT request got no usable answer.
public enum ATTError: Error, Equatable, Sendable {
    /// The server answered with an Error Response (Core v5.4, Vol 3, Part F, §3.4.1.1).
    case error(ATTErrorCode, request: UInt8, handle: UInt16)
    /// No answer within the transaction timeout (§3.3.3); the bearer is then unusable.
    case timeout
    /// The connection ended.
    case linkEnded
    /// The request was given up because the user chose otherwise.
    case aborted
    /// An answer that is not a response to the request.
    case unexpected(String)
}

/// The client side of one ATT bearer: one request at a time, each waiting for its response
/// or Error Response for up to `timeout` seconds (30 in the spec, §3.3.3). Requests run on the
/// connector's worker; responses are handed over by the host's read thread through `deliver`.
final class ATTBearer: @unchecked Sendable {
    private let condition = NSCondition()
    /// One outstanding request, as §3.3.2 requires of a client.
    private let gate = NSLock()
    private var awaiting: UInt8?
    private var response: ATTPDU?
    private var failure: ATTError?
    private var negotiatedMTU = 23
    private let timeout: Double
    private let send: @Sendable ([UInt8]) -> Void

    /// `send` writes one ATT PDU to the link.
    init(timeout: Double, send: @escaping @Sendable ([UInt8]) -> Void) {
        self.timeout = timeout
        self.send = send
    }

    /// ATT_MTU in bytes: 23 until the exchange, then the smaller of both sides' values.
    var mtu: Int {
        get { condition.withLock { negotiatedMTU } }
        set { condition.withLock { negotiatedMTU = max(23, newValue) } }
    }

    /// Sends `pdu` and waits for its response, for `within` seconds where given (else the
    /// transaction timeout); an Error Response throws its code.
    func request(_ pdu: ATTPDU, within: Double? = nil) throws(ATTError) -> ATTPDU {
        gate.lock()
        defer { gate.unlock() }
        condition.lock()
        if let failure { condition.unlock(); throw failure }
        awaiting = pdu.opcode
        response = nil
        condition.unlock()
        send(pdu.bytes)
        let deadline = Date().addingTimeInterval(min(within ?? timeout, timeout))
        condition.lock()
        defer {
            awaiting = nil
            condition.unlock()
        }
        while response == nil {
            if let failure { throw failure }
            if !condition.wait(until: deadline), response == nil {
                failure = .timeout
                throw .timeout
            }
        }
        if case .errorResponse(let request, let handle, let code) = response! { throw .error(code, request: request, handle: handle) }
        return response!
    }

    /// Hands `pdu` to the waiting request if it answers it; says whether it did. Responses
    /// nobody waits for are dropped by the caller (§3.3: a response answers the one request).
    func deliver(_ pdu: ATTPDU) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let awaiting, response == nil else { return false }
        switch pdu {
        case .errorResponse(let request, _, _) where request == awaiting: break
        // Every request the client sends is answered by the opcode that follows it.
        case _ where pdu.opcode == awaiting &+ 1: break
        default: return false
        }
        response = pdu
        condition.broadcast()
        return true
    }

    /// Ends the bearer: the waiting request and every later one throw `error`.
    func fail(_ error: ATTError) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }
}
