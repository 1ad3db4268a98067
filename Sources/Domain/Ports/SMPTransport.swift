// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// One link to a device that speaks MCUmgr's SMP: it sends packets and hands back what the
/// device sends, as the transport cuts it. The routes implement it: UDP (a datagram a message),
/// a serial line (the console framing), a GATT characteristic (writes without response and
/// notifications). The client above reassembles messages by their headers' lengths.
public protocol SMPTransport: AnyObject, Sendable {
    /// The longest SMP message it carries: a datagram's room, a serial frame's; a GATT link
    /// cuts a message into writes of ATT_MTU − 3 itself, so there it is a message's own limit.
    var maximumMessage: Int { get }
    /// What the device sends, as it arrives; it finishes when the link ends.
    var received: Feed<[UInt8]> { get }
    /// Sends one whole message; throws when the link is gone.
    func send(_ packet: [UInt8]) async throws(SMPProblem)
    /// Ends the link.
    func close() async
}
