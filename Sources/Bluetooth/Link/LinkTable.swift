// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Whoever made a link, in either role: it hears the link's frames on the host's read thread.
protocol LinkOwner: AnyObject, Sendable {
    func host(_ host: HCIHost, didReceive frame: L2CAPFrame, on link: LELink)
}

/// The LE links on one controller, by connection handle. The host reassembles every link's
/// ACL packets here, once, and hands each whole L2CAP frame to the link's maker; it gives back
/// the controller's buffers as Number of Completed Packets frees them, and forgets a link at
/// its Disconnection Complete.
final class LinkTable: @unchecked Sendable {
    private struct Entry {
        let link: LELink
        weak var owner: LinkOwner?
    }

    private let lock = NSLock()
    private var entries: [UInt16: Entry] = [:]
    /// The controller's LE buffers, which its links share; made with the count it gives.
    private var shared: ACLCredits?
    /// Only the host's read thread touches it.
    private var reassembler = ACLReassembler()
    /// What the controller offers, read by whichever role needs it first; guarded by `reading`,
    /// which holds the other role back while the first reads.
    private var known: LEController?
    private let reading = NSLock()

    /// Adds `link`, whose frames go to `owner` from now on.
    func open(_ link: LELink, for owner: LinkOwner) {
        lock.withLock { entries[link.handle] = Entry(link: link, owner: owner) }
    }

    /// The controller's LE buffers, features and address, read on `host` the first time (`wanted`
    /// is the address to take, if this is the first) and the same for every link after.
    func controller(on host: HCIHost, wanted: [UInt8]) throws(ScanFailure) -> LEController {
        reading.lock()
        defer { reading.unlock() }
        if let known { return known }
        let read = try LEController.read(host, wanted: wanted)
        known = read
        return read
    }

    func link(_ handle: UInt16) -> LELink? { lock.withLock { entries[handle]?.link } }

    /// The controller's buffers (`count`, as LE Read Buffer Size gave it), one pool for every link.
    func credits(count: Int) -> ACLCredits {
        lock.withLock {
            if let shared { return shared }
            let made = ACLCredits(count: count)
            shared = made
            return made
        }
    }

    /// Every link, whatever FavBlue's role on it.
    var all: [LELink] { lock.withLock { entries.values.map(\.link) } }

    /// One ACL packet (the read thread): the frame it completes and whose it is, or nil while
    /// more is to come or for a handle no link has. Malformed data throws, costing that frame.
    func receive(_ bytes: [UInt8]) throws(DecodeError) -> (LELink, LinkOwner, L2CAPFrame)? {
        let packet = try ACLPacket.decode(bytes[...])
        guard let whole = try reassembler.add(packet) else { return nil }
        let frame = try L2CAPFrame.decode(whole)
        guard let entry = lock.withLock({ entries[packet.handle] }), let owner = entry.owner else { return nil }
        return (entry.link, owner, frame)
    }

    /// Number of Completed Packets: each link's buffers come back.
    func completed(_ list: [CompletedPackets]) {
        let found = lock.withLock { list.compactMap { entry in entries[entry.handle].map { ($0.link, entry.count) } } }
        for (link, count) in found { link.outbox.completed(Int(count)) }
    }

    /// Disconnection Complete (the read thread): the link and its partial frame are gone.
    func ended(_ handle: UInt16) {
        reassembler.reset(handle)
        let gone = lock.withLock { entries.removeValue(forKey: handle) }
        gone?.link.closed()
    }

    /// The host ended: every link is gone.
    func endAll() {
        let gone = lock.withLock { () -> [Entry] in
            defer { entries = [:] }
            return Array(entries.values)
        }
        for entry in gone { entry.link.closed() }
    }
}
