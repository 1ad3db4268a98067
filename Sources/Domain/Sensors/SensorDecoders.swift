// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// What a sensor decoder reads: one device's advertising, as folded so far.
public struct SensorFrame: Sendable {
    /// "AA:BB:CC:DD:EE:FF", the address heard; encrypted families build their nonce from it.
    public var address: String { heardAt?.address ?? text }
    /// The address as heard, when the frame is a device's: its text is made only when asked,
    /// since most frames are read without it.
    private var heardAt: DeviceID?
    private var text = ""
    public var name: String?
    public var manufacturerData: [ManufacturerData]
    public var serviceData: [ServiceID: [UInt8]]
    /// The service UUIDs it lists; some families are told by one (Mopeka's FEE5).
    public var services: [ServiceID]

    public init(address: String, name: String?, manufacturerData: [ManufacturerData], serviceData: [ServiceID: [UInt8]],
                services: [ServiceID] = []) {
        self.text = address
        self.name = name
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.services = services
    }

    /// A device's frame, heard at `heardAt` (nil: not yet heard).
    init(heardAt: DeviceID?, name: String?, manufacturerData: [ManufacturerData], serviceData: [ServiceID: [UInt8]],
         services: [ServiceID]) {
        self.heardAt = heardAt
        self.name = name
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.services = services
    }

    /// The address's six bytes as written (most significant first); nil when it is not one.
    var addressBytes: [UInt8]? {
        if let heardAt { return heardAt.octets }
        let parts = text.split(separator: ":")
        guard parts.count == 6 else { return nil }
        let bytes = parts.compactMap { UInt8($0, radix: 16) }
        return bytes.count == 6 ? bytes : nil
    }

    /// Whether `bytes` are the address the frame was heard from, as written (most significant
    /// first) or `reversed`: formats that carry the device's own address are told by it.
    func carriesItsAddress(_ bytes: ArraySlice<UInt8>, reversed: Bool = false) -> Bool {
        guard let address = addressBytes, bytes.count == 6 else { return false }
        return reversed ? bytes.reversed().elementsEqual(address) : bytes.elementsEqual(address)
    }

    /// The service data of a 16-bit UUID ("FCD2").
    func service(_ uuid: String) -> [UInt8]? { serviceData.first { $0.key.uuid == uuid }?.value }

    /// Whether it lists the service `uuid` ("FEE5", or a 128-bit one in any case).
    func lists(_ uuid: String) -> Bool { services.lists(uuid) }

    /// The only manufacturer block with its company ID put back in front (little-endian), for
    /// families whose firmware writes readings where the company ID belongs.
    var wholeBlock: [UInt8]? {
        guard let block = manufacturerData.last else { return nil }
        return [UInt8(block.companyID & 0xFF), UInt8(block.companyID >> 8)] + block.data
    }

    /// The newest block of a company.
    func company(_ id: UInt16) -> [UInt8]? { manufacturerData.last { $0.companyID == id }?.data }
}

extension [ServiceID] {
    /// Whether the service `uuid` ("FEE5", or a 128-bit one in any case) is among them.
    /// ASCII case folded byte by byte: Foundation's comparison is locale-aware, and families ask
    /// this of each report.
    func lists(_ uuid: String) -> Bool {
        let wanted = uuid.utf8
        func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return contains { id in
            let have = id.uuid.utf8
            return have.count == wanted.count && zip(have, wanted).allSatisfy { folded($0) == folded($1) }
        }
    }
}

/// The key and cipher that open an encrypted family's frames: the keyring in the app,
/// `--sensor-keys` in the command. A wrong key is told by the frame's own check (the MIC).
public protocol SensorKeys: Sendable {
    /// The device's key (16 bytes for BTHome, MiBeacon and Victron), if one is known.
    func key(for address: String) -> [UInt8]?
    /// AES-CCM: `ciphertext` opened with `key` and `nonce`, checked against `tag`; nil when the
    /// check fails.
    func ccmOpen(key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], associated: [UInt8]) -> [UInt8]?
    /// AES-CTR: `data` XORed with the key stream from the 16-byte `counter` block.
    func ctr(key: [UInt8], counter: [UInt8], data: [UInt8]) -> [UInt8]?
}

/// Where a family finds its frames: a service's data, a company's block, or any block.
enum SensorSource: Hashable {
    case service(String)
    case company(UInt16)
    case anyCompany
    /// Service data under any UUID (a format told by its own first bytes).
    case anyService
}

/// One sensor family: a pure function from an advertisement to what it says. Each family is
/// one file with its source cited; adding one is that file (the build lists it, `listed`) and its test.
protocol SensorFamily {
    /// The blocks it reads: only frames that carry one are offered to it.
    static var reads: [SensorSource] { get }
    /// Higher wins where two families read one advertisement: a vendor's own format over a
    /// generic one, a beacon last.
    static var rank: Int { get }
    /// What `frame` says, or nil when it is not this family's, or too short, inconsistent or
    /// out of the format's range to read.
    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData?
    /// Its frames each carry only some of the device's numbered probes (`SensorData.partial`).
    static var sendsPartialFrames: Bool { get }
    /// A cheap first look, for families that send partial frames: whether a device listing
    /// `services` and sending `blocks` and `serviceData` may be theirs.
    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool
    /// For families that send partial frames: what `frame` carries, told without decoding it;
    /// nil when it cannot be told (an encrypted frame), and then the frame is decoded in turn.
    static func contents(_ frame: SensorFrame) -> FrameContents?
}

extension SensorFamily {
    static var sendsPartialFrames: Bool { false }
    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool { false }
    static func contents(_ frame: SensorFrame) -> FrameContents? { nil }
}

/// Every sensor family FavBlue reads.
public enum SensorDecoders {
    static let families: [SensorFamily.Type] = listed.sorted { $0.rank > $1.rank }

    /// The families by the block they read, each list most specific first: a frame is offered
    /// only to the families of the blocks it carries, not to every family in turn.
    static let byService: [String: [SensorFamily.Type]] = index { if case .service(let uuid) = $0 { uuid } else { nil } }
    static let byCompany: [UInt16: [SensorFamily.Type]] = index { if case .company(let id) = $0 { id } else { nil } }
    static let anyCompany: [SensorFamily.Type] = families.filter { $0.reads.contains(.anyCompany) }
    static let anyService: [SensorFamily.Type] = families.filter { $0.reads.contains(.anyService) }
    /// The families a frame of one block is offered to, in the order `decode` tries them.
    static let forService: [String: [SensorFamily.Type]] = byService.mapValues { offered($0 + anyService) }
    static let forCompany: [UInt16: [SensorFamily.Type]] = byCompany.mapValues { offered($0 + anyCompany) }
    static let forAnyService = offered(anyService)
    static let forAnyCompany = offered(anyCompany)

    /// `candidates` in the order `decode` tries them: most specific first, each once.
    private static func offered(_ candidates: [SensorFamily.Type]) -> [SensorFamily.Type] {
        var tried = Set<ObjectIdentifier>()
        return candidates.sorted { $0.rank > $1.rank }.filter { tried.insert(ObjectIdentifier($0)).inserted }
    }

    private static func index<Key: Hashable>(_ key: (SensorSource) -> Key?) -> [Key: [SensorFamily.Type]] {
        var out: [Key: [SensorFamily.Type]] = [:]
        for family in families {
            for source in family.reads { if let k = key(source) { out[k, default: []].append(family) } }
        }
        return out
    }

    /// Off only for the decoding-cost benchmark, which times a run without it; set once, by the
    /// program's composition root, before any frame is read.
    nonisolated(unsafe) public static var isEnabled = true

    /// The families whose frames each carry only some of a device's probes.
    static let partialFamilies = families.filter { $0.sendsPartialFrames }

    /// Whether a device listing `services` and sending `blocks` and `serviceData` may send those, asked before decoding.
    /// Never with decoding off, so the benchmark's run without it does none of the fold's work.
    static func mayBePartial(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool {
        isEnabled && !(services.isEmpty && blocks.isEmpty && serviceData.isEmpty) && partialFamilies.contains { $0.mayClaim(services, blocks, serviceData) }
    }

    /// What a partial frame carries, by the first family that can tell.
    static func contents(_ frame: SensorFrame) -> FrameContents? {
        for family in partialFamilies { if let out = family.contents(frame) { return out } }
        return nil
    }

    /// What the advertisement says, by the most specific family that reads it; nil for none.
    public static func decode(_ frame: SensorFrame, keys: SensorKeys? = nil) -> SensorData? {
        // Most reports carry neither service data nor a manufacturer block a family reads.
        guard isEnabled, !frame.serviceData.isEmpty || !frame.manufacturerData.isEmpty else { return nil }
        for family in offered(to: frame) {
            guard var data = family.decode(frame, keys: keys) else { continue }
            // A sensor that is an iBeacon too (April Brother's ABTemp, Radioland's RDL52832) keeps
            // its beacon identity beside its readings, as ibeacon-ble reads both.
            if data.beacon == nil, !beaconFamilies.contains(where: { $0 == family }) {
                data.beacon = beaconFamilies.lazy.compactMap { $0.decode(frame, keys: nil)?.beacon }.first
            }
            return data
        }
        return nil
    }

    /// The families that read a beacon's identity alone.
    static let beaconFamilies: [SensorFamily.Type] = [IBeacon.self, AltBeacon.self, Eddystone.self]

    /// The families that read a block `frame` carries, most specific first, each once. Most sensors
    /// send one block, whose list is made once, beforehand.
    private static func offered(to frame: SensorFrame) -> [SensorFamily.Type] {
        if frame.serviceData.count + frame.manufacturerData.count == 1 {
            return frame.serviceData.first.map { forService[$0.key.uuid] ?? forAnyService }
                ?? forCompany[frame.manufacturerData[0].companyID] ?? forAnyCompany
        }
        var candidates: [SensorFamily.Type] = []
        for service in frame.serviceData.keys { candidates += byService[service.uuid] ?? [] }
        for block in frame.manufacturerData { candidates += byCompany[block.companyID] ?? [] }
        if !frame.manufacturerData.isEmpty { candidates += anyCompany }
        if !frame.serviceData.isEmpty { candidates += anyService }
        return offered(candidates)
    }

    /// What `data`, heard at `address`, says.
    public static func decode(_ data: AdvertisedData, address: String, keys: SensorKeys? = nil) -> SensorData? {
        decode(SensorFrame(address: address, name: data.name, manufacturerData: data.manufacturerData,
                           serviceData: data.serviceData, services: data.services), keys: keys)
    }
}
