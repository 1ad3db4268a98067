// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// One pairing on one link, in either role: the session, what its driver keeps beside it, and
/// its outcome. Guarded by the lock of whoever drives it (the connector's, or the link's).
final class PairingRun: @unchecked Sendable {
    let session: SMPSession
    /// Puts a question to the user; the peripheral makes its own prompts and leaves it nil.
    let ask: (@Sendable (PairingQuestion) -> Void)?
    /// The responder's key for the central's encryption, once the checks matched.
    var key: [UInt8]?
    /// Bumped by every PDU in or out, so a timer set earlier knows it is stale (§3.4).
    var activity = 0
    /// Numbers the questions asked, so a prompt is told apart from the one before.
    var promptID = 0
    private(set) var outcome: Result<(DeviceID, Bond?), PairingFailure>?

    init(session: SMPSession, ask: (@Sendable (PairingQuestion) -> Void)? = nil) {
        self.session = session
        self.ask = ask
    }

    /// Keeps the first outcome; a later one (a timeout after a failure) changes nothing.
    func end(_ result: Result<(DeviceID, Bond?), PairingFailure>) {
        if outcome == nil { outcome = result }
    }
}
