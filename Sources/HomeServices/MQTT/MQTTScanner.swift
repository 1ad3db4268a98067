// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CMosquitto
import Bluetooth
import Domain
import Foundation
import Localization

/// Gateways in other rooms, through an MQTT broker (libmosquitto): subscribes at QoS 0 to what
/// they publish in the BTtoMQTT format and reports each advertisement as heard by the gateway
/// that published it. Reconnects with backoff (1 s, doubling to 30 s); a refused password stops
/// it with a clear failure. Messages it cannot read are counted, skipped and said once in the log.
final class MQTTScanner: DeviceScanner, SourceStatusReporting, @unchecked Sendable {
    private let address: MQTTAddress
    private let password: String?
    private let log: @Sendable (String) -> Void
    private let streams = ScanStreams()

    // State, guarded by `lock`.
    private let lock = NSLock()
    private var client: OpaquePointer?
    private var gateways: [String: Date] = [:]
    private var skipped = 0
    private var said: Set<String> = []
    private var starting = false
    private var messages = 0
    /// Why no password was given, for the failure if the broker wants one.
    private var note: String?
    /// Why the last attempt to reach the broker failed, while the loop tries again.
    private var retrying: String?

    init(address: MQTTAddress, password: String? = nil, log: @escaping @Sendable (String) -> Void) {
        self.address = address
        self.password = password
        self.log = log
    }

    deinit { close() }

    var observations: Feed<Observation> { streams.observations }
    var states: Feed<ScannerState> { streams.states }

    var sourceStatuses: [SourceStatus] {
        let state = streams.state
        return lock.withLock {
            let broker = SourceStatus(name: address.host, state: state, lastHeard: gateways.values.max(), skipped: skipped,
                                      messages: messages, retrying: retrying)
            return [broker] + gateways.keys.sorted().map {
                SourceStatus(name: $0, state: state, lastHeard: gateways[$0], via: address.host)
            }
        }
    }

    func start() {
        guard lock.withLock({ () -> Bool in
            defer { starting = true }
            return client == nil && !starting
        }) else { return }
        streams.set(.starting)
        // The keyring is asked off the main thread: the Secret Service may have to start first.
        Task.detached { [self] in
            let (password, note) = MQTTClient.password(self.password, for: address)
            if let note { log("mqtt: \(note)") }
            connect(password: password, note: note)
        }
    }

    private func connect(password: String?, note: String?) {
        defer { lock.withLock { starting = false } }
        self.note = note
        guard lock.withLock({ client == nil }) else { return }
        let m: OpaquePointer
        do { m = try MQTTClient.make(address, password: password, object: Unmanaged.passUnretained(self).toOpaque()) } catch {
            return streams.set(.failed(error))
        }
        mosquitto_connect_callback_set(m) { _, object, rc in MQTTScanner.from(object).connected(rc) }
        mosquitto_disconnect_callback_set(m) { _, object, rc in MQTTScanner.from(object).disconnected(rc) }
        mosquitto_message_callback_set(m) { _, object, message in
            guard let message else { return }
            MQTTScanner.from(object).received(message.pointee)
        }
        lock.withLock { client = m }
        MQTTClient.start(m, address) { [self] rc in
            // The loop thread tries again with backoff; the state says why it is not connected yet.
            log("mqtt: \(address): \(MQTTClient.words(rc)); trying again")
            lock.withLock { retrying = MQTTClient.words(rc) }
        }
    }

    func stop() {
        close()
        streams.set(.paused)
    }

    private func close() {
        guard let m = lock.withLock({ () -> OpaquePointer? in
            defer { client = nil }
            return client
        }) else { return }
        MQTTClient.close(m)
    }

    private static func from(_ object: UnsafeMutableRawPointer?) -> MQTTScanner {
        Unmanaged<MQTTScanner>.fromOpaque(object!).takeUnretainedValue()
    }

    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            let reason = String(cString: mosquitto_connack_string(rc))
            // 4 and 5: the user name or password was refused; trying again would not help.
            if rc == 4 || rc == 5 {
                let refused = L10n.format("the broker {} refused the user name or password ({}). Check them, then start again.",
                                          address.host, reason)
                streams.set(.failed(.permissionDenied(note.map { refused + " " + $0 } ?? refused)))
                if let m = lock.withLock({ client }) { mosquitto_disconnect(m) }
            } else {
                log("mqtt: \(address): \(reason)")
                lock.withLock { retrying = reason }
            }
            return
        }
        lock.withLock { retrying = nil }
        if let m = lock.withLock({ client }) { mosquitto_subscribe(m, nil, address.subscription, 0) }
        log("mqtt: connected to \(address)")
        streams.set(.scanning)
    }

    private func disconnected(_ rc: Int32) {
        guard rc != 0, lock.withLock({ client != nil }) else { return }
        if case .failed = streams.state { return }
        log("mqtt: \(address): the broker went away (\(MQTTClient.words(rc))); trying again")
        lock.withLock { retrying = MQTTClient.words(rc) }
        streams.set(.starting)
    }

    private func received(_ message: mosquitto_message) {
        let time = Date()
        lock.withLock { messages += 1 }
        let topic = message.topic.map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self),
                                                                   count: strlen($0))) } ?? []
        let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
        do throws(BTtoMQTT.Problem) {
            let gateway = try BTtoMQTT.gateway(inTopic: topic, prefix: address.prefix)
            let o = try BTtoMQTT.observation(payload, at: time, source: gateway)
            lock.withLock { gateways[gateway] = time }
            streams.emit(o)
        } catch {
            let first = lock.withLock { () -> Bool in
                skipped += 1
                return said.insert(error.message).inserted
            }
            if first { log("mqtt: \(address): skipped \(error.message) (counted, said once)") }
        }
    }
}
