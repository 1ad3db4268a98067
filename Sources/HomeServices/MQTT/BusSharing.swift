// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CMosquitto
import Bluetooth
import Domain
import Foundation
import Localization

/// Gives back to the bus (opt-in): what this computer's radio hears, in the BTtoMQTT format
/// under its own gateway name, so the laptop joins the house's gateways while it is there;
/// and the favorites' presence for Home Assistant through MQTT discovery, renamed with their
/// nicknames. At most one message a second per device.
@MainActor
public final class BusSharing {
    private let publisher: MQTTPublisher
    private let live: LiveDevices
    private let favorites: Favorites
    public let gateway: String
    /// The name this computer's own source goes by beside others: only its hearing is shared.
    private let own: String
    private var tokens: [ObservationToken] = []
    private var sent: [DeviceID: Date] = [:]
    private var presence: [DeviceID: String] = [:]
    private var configs: [DeviceID: [UInt8]] = [:]
    /// What each favorite's readings last said: their documents, states, and when each came.
    private var readingConfigs: [String: [UInt8]] = [:]
    private var readingStates: [String: [UInt8]] = [:]
    private var readingSeen: [String: (id: DeviceID, key: String, time: Date)] = [:]
    private var availability: [String: String] = [:]
    /// When each event reading's last event said happened.
    private var lastEventTime: [String: Date] = [:]
    /// Events heard before sharing began are not said.
    private let startedAt = Date()
    /// A reading unheard this long is unavailable to Home Assistant.
    public static let readingTimeout: TimeInterval = 300
    /// The time now (tests move it on).
    public var now: () -> Date = { Date() }

    public init(broker: MQTTAddress, gateway: String, live: LiveDevices, favorites: Favorites,
                own: String, log: @escaping @Sendable (String) -> Void) {
        publisher = MQTTPublisher(address: broker, log: log)
        self.live = live
        self.favorites = favorites
        self.gateway = gateway
        self.own = own
        publisher.onConnect = { [weak self] in
            Task { @MainActor in
                // What was said before the broker took the connection is said again: the
                // favorites' documents and states, and each device's latest report.
                self?.configs = [:]
                self?.presence = [:]
                self?.readingConfigs = [:]
                self?.readingStates = [:]
                self?.availability = [:]
                self?.sent = [:]
                self?.share()
            }
        }
        publisher.start()
        tokens.append(live.observe { [weak self] _ in self?.share() })
        tokens.append(favorites.observe { [weak self] in self?.share() })
    }

    /// Stops publishing; what Home Assistant was told stays (its trackers go "not_home" on their own).
    public func stop() {
        tokens = []
        publisher.stop()
    }

    private func share() {
        for (id, device) in live.all {
            // With several sources, only what this computer heard; the gateways speak for themselves.
            let mine = device.heardBy.isEmpty ? (device.lastSeen, device.rssi) : device.heardBy.first { $0.source == own }.map { ($0.lastSeen, $0.rssi) }
            guard let (heard, rssi) = mine, sent[id].map({ heard.timeIntervalSince($0) >= 1 }) ?? true else { continue }
            sent[id] = heard
            let message = BTtoMQTT.message(id, device.advertised, rssi: rssi, prefix: publisher.prefix, gateway: gateway)
            publisher.publish(message.topic, message.payload, retain: false)
        }
        for favorite in favorites.list {
            let config = HomeAssistant.config(favorite, gateway: gateway)
            if configs[favorite.id] != config {
                configs[favorite.id] = config
                publisher.publish(HomeAssistant.configTopic(favorite.id), config, retain: true)
            }
            let home: Bool
            if case .nearby = favorites.presence(of: favorite.id) { home = true } else { home = false }
            let room = favorites.room(of: favorite.id)
            let state = home ? "home" : "not_home"
            let attributes = HomeAssistant.attributes(room: room?.name, rssi: room?.rssi ?? live[favorite.id]?.smoothed)
            let said = state + String(decoding: attributes, as: UTF8.self)
            guard presence[favorite.id] != said else { continue }
            presence[favorite.id] = said
            publisher.publish(HomeAssistant.stateTopic(favorite.id, gateway: gateway), Array(state.utf8), retain: true)
            publisher.publish(HomeAssistant.attributesTopic(favorite.id, gateway: gateway), attributes, retain: true)
        }
        shareReadings()
        if sent.count > live.all.count + 1_000 { sent = sent.filter { live[$0.key] != nil } }
    }

    /// Each favorite sensor's readings for Home Assistant: measurements as sensors, states (a
    /// door, motion) as binary sensors, a button's presses as events; a retained document per
    /// reading, its state when it changes, and "offline" once it stops coming.
    private func shareReadings() {
        let now = now()
        for favorite in favorites.list {
            guard let device = live[favorite.id], let data = live.sensor(of: favorite.id) else { continue }
            for (key, reading) in data.named where reading.quantity != .packetID {
                let quantity = reading.quantity
                guard quantity.kind != .event || !HomeAssistant.eventTypes(quantity).isEmpty else { continue }
                let tag = favorite.id.storageKey + "/" + key
                readingSeen[tag] = (favorite.id, key, device.lastSeen)
                // Kept as said only once the broker took it: what was refused is said again next time.
                let config = quantity.kind == .measurement
                    ? HomeAssistant.sensorConfig(favorite, key: key, quantity: quantity, gateway: gateway)
                    : HomeAssistant.stateConfig(favorite, key: key, quantity: quantity, gateway: gateway)
                if readingConfigs[tag] != config,
                   publisher.publish(HomeAssistant.readingConfigTopic(favorite.id, key, quantity), config, retain: true) {
                    readingConfigs[tag] = config
                }
                let topic = HomeAssistant.sensorStateTopic(favorite.id, key, gateway: gateway)
                if quantity.kind == .event {
                    // Each event once, as the device's timeline took it from the frames (a frame
                    // repeated is one event), however many came between two rounds; said as it
                    // happens, never kept for newcomers, none from before sharing began.
                    let since = lastEventTime[tag] ?? startedAt
                    let events = live.recentStateChanges(of: favorite.id).filter { $0.key == key && $0.time > since }
                    for event in events {
                        if let payload = HomeAssistant.statePayload(SensorReading(quantity, event.value)) {
                            publisher.publish(topic, payload, retain: false)
                        }
                    }
                    if let last = events.last { lastEventTime[tag] = last.time }
                    continue
                }
                let state = quantity.kind == .binary ? HomeAssistant.statePayload(reading) ?? [] : HomeAssistant.sensorState(reading)
                if readingStates[tag] != state, publisher.publish(topic, state, retain: true) {
                    readingStates[tag] = state
                }
            }
        }
        // A reading that stopped coming (its device silent, or gone from the list) is unavailable.
        for (tag, seen) in readingSeen {
            let state = now.timeIntervalSince(seen.time) < Self.readingTimeout ? "online" : "offline"
            guard availability[tag] != state,
                  publisher.publish(HomeAssistant.sensorAvailabilityTopic(seen.id, seen.key, gateway: gateway), Array(state.utf8), retain: true)
            else { continue }
            availability[tag] = state
        }
    }
}

/// A client that publishes to a broker, reconnecting as the reader does; what is published
/// while the broker is away is queued by libmosquitto and sent once it is back.
final class MQTTPublisher: @unchecked Sendable {
    private let address: MQTTAddress
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var client: OpaquePointer?
    var prefix: String { address.prefix }
    /// Runs (on libmosquitto's thread) each time the broker takes the connection: what was
    /// said before it did is to be said again.
    var onConnect: (@Sendable () -> Void)?

    init(address: MQTTAddress, log: @escaping @Sendable (String) -> Void) {
        self.address = address
        self.log = log
    }

    deinit { stop() }

    func start() {
        Task.detached { [self] in
            let (password, note) = MQTTClient.password(nil, for: address)
            if let note { log("mqtt: \(note)") }
            do throws(ScanFailure) {
                let m = try MQTTClient.make(address, password: password, object: Unmanaged.passUnretained(self).toOpaque())
                mosquitto_connect_callback_set(m) { _, object, rc in
                    guard rc == 0, let object else { return }
                    Unmanaged<MQTTPublisher>.fromOpaque(object).takeUnretainedValue().onConnect?()
                }
                lock.withLock { client = m }
                // The thread first: it retries a first connection that failed only if it is
                // already running when that connection fails (MQTTClient.start).
                MQTTClient.start(m, address) { rc in log("mqtt: \(address): \(MQTTClient.words(rc)); trying again") }
            } catch {
                log("mqtt: \(address): \(error.message)")
            }
        }
    }

    /// Whether libmosquitto took the message (not while it has no connection).
    @discardableResult
    func publish(_ topic: String, _ payload: [UInt8], retain: Bool) -> Bool {
        guard let m = lock.withLock({ client }) else { return false }
        return payload.withUnsafeBytes { bytes in
            mosquitto_publish(m, nil, topic, Int32(bytes.count), bytes.baseAddress, 0, retain) == MOSQ_ERR_SUCCESS.rawValue
        }
    }

    func stop() {
        guard let m = lock.withLock({ () -> OpaquePointer? in
            defer { client = nil }
            return client
        }) else { return }
        MQTTClient.close(m)
    }
}
