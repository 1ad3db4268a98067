// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Which of a sensor's frames are believed once its key is known. Anyone in range can send a
/// frame from its address, so only a frame its key opened counts, and an old one replayed does
/// not: the rules of bthome-ble and xiaomi-ble. A frame not believed leaves the last believed
/// one in place, so a forged frame neither shows nor reaches the history.
public struct SensorGuard: Equatable, Sendable {
    /// What became of one frame.
    public enum Verdict: Equatable, Sendable {
        /// Opened with the key and newer than the last: it is what the sensor says now.
        case believed
        /// Nothing new: the frame believed last sent again, or one with no readings.
        case repeated
        /// Not encrypted, though a key is known: anyone could have sent it.
        case plaintextIgnored
        /// Its encryption counter is below the last believed one's: an old frame replayed.
        case counterFell(from: UInt32, to: UInt32)
        /// Its packet number was heard within the last seconds: the same packet again, or an older one.
        case packetRepeated(Int)
        /// Its check (the MIC) refused the key, after the key had opened frames: not the sensor's.
        case checkFailed
        /// The key has never opened a frame of it: the key is wrong, as the page says.
        case wrongKey

        /// For `--verbose`: what was done with the frame, or nil for a frame believed or repeated.
        public var refusal: String? {
            switch self {
            // A wrong key is said once per device, with its readings.
            case .believed, .repeated, .wrongKey: nil
            case .plaintextIgnored: "a frame without encryption was ignored: its key is known"
            case .counterFell(let from, let to): "a frame with encryption counter \(to) was refused: \(from) was heard before"
            case .packetRepeated(let id): "packet \(id) was heard already and was dropped"
            case .checkFailed: "a frame its key does not open was refused"
            }
        }
    }

    /// The last frame believed; nil until one is.
    public private(set) var believed: SensorData?
    /// A frame without encryption was ignored since the key was given.
    public private(set) var ignoredPlaintext = false
    /// The last frame's verdict.
    public private(set) var last: Verdict?
    /// The key has opened a frame: a frame it does not open is no longer the key's fault.
    private var keyOpened = false
    private var counter: UInt32?
    private var packetID: Int?
    private var packetTime: Date?
    /// The blocks of the frame judged last, so a frame sent again is not opened again.
    private var lastManufacturerData: [ManufacturerData] = []
    private var lastServiceData: [ServiceID: [UInt8]] = [:]

    public init() {}

    /// A counter below this is a sensor that restarted (a battery change), not a replay, as
    /// bthome-ble allows.
    static let restartBelow: UInt32 = 100
    /// Packet numbers repeat only within this many seconds; after that a number is a new packet.
    static let packetWindow: TimeInterval = 4

    /// Judges `data`, the frame heard at `time` as its key opened it (or could not).
    @discardableResult
    public mutating func take(_ data: SensorData, at time: Date) -> Verdict {
        let verdict = judge(data, at: time)
        last = verdict
        switch verdict {
        case .believed:
            // A frame that carries some of the readings keeps the others believed before.
            believed = data.keepingProbes(of: believed)
            keyOpened = true
            counter = data.counter ?? counter
            if let id = data.packetID {
                packetID = id
                packetTime = time
            }
        case .repeated:
            if data.packetID != nil { packetTime = time }
        case .plaintextIgnored:
            ignoredPlaintext = true
        case .wrongKey:
            believed = data
        case .counterFell, .packetRepeated, .checkFailed:
            break
        }
        return verdict
    }

    private func judge(_ data: SensorData, at time: Date) -> Verdict {
        if data.wrongKey || data.encrypted { return keyOpened ? .checkFailed : .wrongKey }
        guard data.sealed else { return data.readings.isEmpty ? .repeated : .plaintextIgnored }
        if let new = data.counter, let old = counter {
            if new == old { return .repeated }
            if new < old && new >= Self.restartBelow { return .counterFell(from: old, to: new) }
        }
        if let new = data.packetID, let old = packetID, let then = packetTime, time.timeIntervalSince(then) <= Self.packetWindow {
            // Ahead by 1 to 63 (mod 256) is a new packet; the same or behind is not.
            let ahead = (new - old + 256) % 256
            if ahead == 0 || ahead >= 64 { return .packetRepeated(new) }
        }
        return .believed
    }

    /// Judges the device's advertising after a report, opened with `key` at the address heard;
    /// nil when its blocks are the frame judged last.
    public mutating func watch(_ advertised: AdvertisedData, heardAt address: String, key: [UInt8], ciphers: SensorKeys,
                               at time: Date) -> Verdict? {
        guard advertised.manufacturerData != lastManufacturerData || advertised.serviceData != lastServiceData else { return nil }
        lastManufacturerData = advertised.manufacturerData
        lastServiceData = advertised.serviceData
        guard let data = SensorDecoders.decode(advertised, address: address, keys: OneSensorKey(key: key, ciphers: ciphers)) else {
            return nil
        }
        return take(data, at: time)
    }

    /// What the sensor is shown to say: the frame believed last, marked when a frame without
    /// encryption was ignored; nil when nothing has been judged yet.
    public var shown: SensorData? {
        guard var out = believed ?? (ignoredPlaintext ? SensorData() : nil) else { return nil }
        out.plaintextIgnored = ignoredPlaintext
        return out
    }
}

extension SensorGuard {
    /// Feeds a device's advertising after a report to its guard (made on first use) when the
    /// key of `owner` is in `keys`; what became of the frame, nil when nothing new was judged.
    public static func judge(_ judged: inout SensorGuard?, _ advertised: AdvertisedData, heardAt address: String,
                             owner: String, keys: SensorKeys?, at time: Date) -> Verdict? {
        guard let keys, let key = keys.key(for: owner) else { return nil }
        var watching = judged ?? SensorGuard()
        defer { judged = watching }
        return watching.watch(advertised, heardAt: address, key: key, ciphers: keys, at: time)
    }

    /// What a device's advertising says as a sensor: without a key, what it says; with the key of
    /// `owner` known, only what `judged` believes. A key given since the last report judges the
    /// frame heard last by the same rules.
    public static func sensor(_ advertised: AdvertisedData, judged: SensorGuard?, heardAt address: String, owner: String,
                              at time: Date, keys: SensorKeys?) -> SensorData? {
        // Most devices are no sensor: their rows, refreshed several times a second, ask no keyring.
        guard let keys, advertised.hasSensor, let key = keys.key(for: owner) else { return advertised.sensor }
        if let shown = judged?.shown { return shown }
        var fresh = SensorGuard()
        _ = fresh.watch(advertised, heardAt: address, key: key, ciphers: keys, at: time)
        // A frame with nothing to forge (a model alone, or still sealed) is shown as it is.
        return fresh.shown ?? advertised.sensor.flatMap { $0.readings.isEmpty ? $0 : nil }
    }
}
