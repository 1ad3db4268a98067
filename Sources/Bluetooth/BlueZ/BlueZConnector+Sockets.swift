// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// A socket BlueZ hands over for one characteristic (AcquireWrite, AcquireNotify): each datagram
/// is one Write Command, or one notification, with no D-Bus message for each, which is the way
/// BlueZ recommends for throughput. The descriptor is closed once, under the lock, so its number
/// cannot go to another descriptor while a send or the reading thread still uses it.
final class AcquiredSocket: @unchecked Sendable {
    /// ATT_MTU, as BlueZ gave it with the socket.
    let mtu: Int
    private let descriptor: Int32
    private let lock = NSLock()
    private var closed = false
    private var reading = false
    private var closing = false

    init(descriptor: Int32, mtu: Int) {
        self.descriptor = descriptor
        self.mtu = mtu
    }

    deinit { close() }

    enum Sent: Equatable {
        case sent
        /// BlueZ has not taken the earlier ones yet: try again shortly.
        case full
        case gone
    }

    func send(_ bytes: [UInt8]) -> Sent {
        lock.withLock {
            guard !closed, !closing else { return .gone }
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent == bytes.count { return .sent }
            return sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS || errno == EINTR) ? .full : .gone
        }
    }

    /// Reads each datagram on a thread of its own until BlueZ hangs up or `close()`; that thread
    /// then closes the descriptor and calls `ended`.
    func read(_ deliver: @escaping @Sendable ([UInt8]) -> Void, ended: @escaping @Sendable () -> Void) {
        lock.withLock { reading = true }
        let thread = Thread.named("favblue-notify") { [self] in
            readAll(deliver)
            lock.withLock {
                closed = true
                Glibc.close(descriptor)
            }
            ended()
        }
        thread.start()
    }

    private func readAll(_ deliver: @Sendable ([UInt8]) -> Void) {
        // A notification is at most ATT_MTU − 3 bytes, and ATT_MTU at most 517.
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                deliver(Array(buffer[0..<count]))
            } else if count == 0 {
                // An empty notification, unless the socket was shut: a datagram socket reads 0 for both.
                if watched.revents & Int16(POLLHUP) != 0 || lock.withLock({ closing }) { return }
                deliver([])
            } else if errno != EAGAIN && errno != EINTR {
                return
            }
        }
    }

    /// Stops using the socket: BlueZ learns of it from the hang-up (it unsubscribes, or frees the write).
    func close() {
        lock.withLock {
            guard !closed, !closing else { return }
            if reading {
                // Shutting it down wakes the reading thread, which closes it.
                closing = true
                shutdown(descriptor, Int32(SHUT_RDWR))
            } else {
                closed = true
                Glibc.close(descriptor)
            }
        }
    }
}

extension BlueZConnector {
    /// BlueZ offers a socket for a characteristic where it has the property (5.46 and later, for
    /// one that writes without response, or notifies).
    private func offersSocket(_ path: String, _ property: String) -> Bool {
        bus.objects[path, BlueZObjects.Interface.gattCharacteristic]?[property] != nil
    }

    private func acquire(_ method: String, _ path: String) async -> AcquiredSocket? {
        do {
            let (reply, descriptors) = try await bus.callTakingDescriptors(path, BlueZObjects.Interface.gattCharacteristic, method,
                                                                            [.vardict([:])], timeout: callTimeout)
            // The answer is (h socket, q ATT_MTU); every other descriptor is closed.
            var kept: Int?
            var socket: AcquiredSocket?
            if let items = reply.items, items.count == 2, case .fileDescriptor(let index) = items[0],
               case .uint16(let mtu) = items[1], descriptors.indices.contains(Int(index)), mtu >= 23 {
                kept = Int(index)
                socket = AcquiredSocket(descriptor: descriptors[Int(index)], mtu: Int(mtu))
            }
            for (index, descriptor) in descriptors.enumerated() where index != kept { Glibc.close(descriptor) }
            if socket == nil { log("\(method) \(path): an answer without a socket (\(reply.signature))") }
            return socket
        } catch {
            log("\(method) \(path): \(error.message)")
            return nil
        }
    }

    /// Sends a Write Command through AcquireWrite's socket; false where BlueZ offers none, or
    /// refused it, so the caller uses WriteValue.
    func writeCommandThroughSocket(_ value: [UInt8], path: String) async throws(GATTError) -> Bool {
        guard let session = lock.withLock({ self.session }) else { return false }
        let pending: Task<AcquiredSocket?, Never>? = lock.withLock {
            if let task = session.writers[path] { return task }
            guard offersSocket(path, "WriteAcquired") else { return nil }
            // One request for the socket, which every write waits for: writes keep their order.
            let task = Task { await self.acquire("AcquireWrite", path) }
            session.writers[path] = task
            return task
        }
        guard let pending, let socket = await pending.value, value.count <= socket.mtu - 3 else { return false }
        for _ in 0..<5_000 {
            switch socket.send(value) {
            case .sent: return true
            case .full: try? await Task.sleep(for: .milliseconds(1))
            case .gone: throw .connectionLost
            }
        }
        throw .timedOut
    }

    /// Subscribes through AcquireNotify's socket, whose datagrams are the notifications; false
    /// where BlueZ offers none, or refused it, so the caller uses StartNotify.
    func notifyThroughSocket(path: String) async throws(GATTError) -> Bool {
        guard let session = lock.withLock({ self.session }), offersSocket(path, "NotifyAcquired"),
              !lock.withLock({ session.refused.contains(path) }) else { return false }
        guard let socket = await acquire("AcquireNotify", path) else {
            lock.withLock { _ = session.refused.insert(path) }
            return false
        }
        let kept: Bool = lock.withLock {
            guard self.session === session else { return false }
            session.notifiers[path]?.close()
            session.notifiers[path] = socket
            return true
        }
        guard kept else {
            socket.close()
            throw .notConnected
        }
        socket.read({ [weak self] value in self?.received(value, on: path) }, ended: { [weak self, weak session, weak socket] in
            guard let self, let session else { return }
            lock.withLock { if session.notifiers[path] === socket { session.notifiers[path] = nil } }
        })
        return true
    }

    /// Ends a subscription made through a socket; false where there is none.
    func stopNotifyThroughSocket(path: String) -> Bool {
        guard let socket = lock.withLock({ session?.notifiers.removeValue(forKey: path) }) else { return false }
        socket.close()
        return true
    }
}
