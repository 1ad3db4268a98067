// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Govee's meat thermometers, H5181 to H5198: a manufacturer block of a model's own length,
/// under company IDs the firmware picks from a few, with the service 8x51 listed (H5181: 8151)
/// or the model in the name. From byte 8, big-endian, each probe's temperature in hundredths of
/// a degree (a negative value: no probe) and its alarm (the H5198's high, then low; negative:
/// none). The four-probe H5184 and H5198 send two probes a frame, byte 6 saying which pair; the
/// H5191 sends the air's temperature after its probe. Source: Home Assistant's govee-ble (after bleparser).
enum GoveeMeat: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.anyCompany]
    static let sendsPartialFrames = true

    /// A model: its block's length, the companies and service that tell it, and where its probes are.
    struct Model {
        let name: String
        let length: Int
        let companies: Set<UInt16>
        let service: String
        /// Each probe's offset in the block; the second pair's numbers follow byte 6 where `paired`.
        let probes: [Int]
        var paired = false
        /// Where the air's temperature is, for the H5191.
        var air: Int?
    }

    /// In govee-ble's order, which matters where two share a length.
    static let models: [Model] = [
        Model(name: "H5181", length: 14, companies: [0xF861, 0x388A, 0xEA42, 0xAAA2, 0xD14B], service: "8151", probes: [8]),
        Model(name: "H5182", length: 17, companies: [0x2730], service: "8251", probes: [8, 13]),
        Model(name: "H5183", length: 14, companies: [0x67DD, 0xE02F, 0xF79F], service: "8351", probes: [8]),
        Model(name: "H5184", length: 17, companies: [0x1B36], service: "8451", probes: [8, 13], paired: true),
        Model(name: "H5185", length: 20, companies: [0x4A32, 0x0332, 0x4C32], service: "8551", probes: [8, 14]),
        Model(name: "H5191", length: 20, companies: [0xAC63], service: "9151", probes: [8], air: 14),
        Model(name: "H5198", length: 20, companies: [0x3022], service: "9851", probes: [8, 14], paired: true),
    ]

    /// The four-probe models' companies: their frames each carry one pair.
    static let pairedCompanies: Set<UInt16> = Set(models.filter(\.paired).flatMap(\.companies))

    /// Asked of every report (before decoding): a set lookup a block.
    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool {
        blocks.contains { pairedCompanies.contains($0.companyID) } || (!services.isEmpty && (services.lists("8451") || services.lists("9851")))
    }

    /// The pair of probes a paired model's frame is for (byte 6), by its company and length.
    static func contents(_ frame: SensorFrame) -> FrameContents? {
        guard let block = frame.manufacturerData.first(where: { pairedCompanies.contains($0.companyID) }), block.data.count > 6 else {
            return nil
        }
        var out = FrameContents(self, kind: UInt32(block.companyID) << 8 | UInt32(block.data.count & 0xFF))
        return out.add(UInt32(block.data[6] & 0x3F)) ? out : nil
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        let name = frame.name ?? ""
        for block in frame.manufacturerData where block.companyID != 0x004C {
            let fitting = models.filter { $0.length == block.data.count }
            guard let model = fitting.first(where: { Govee.has(name, $0.name) || $0.companies.contains(block.companyID) || frame.lists($0.service) })
            else { continue }
            return read(block.data, as: model)
        }
        return nil
    }

    static func read(_ data: [UInt8], as model: Model) -> SensorData? {
        let b = SensorBytes(data)
        var first = 1
        if model.paired {
            // Byte 6: 1 (or 65, 129, 193) for probes 1 and 2, 2 (66, 130, 194) for 3 and 4.
            switch data[6] & 0x3F {
            case 1: first = 1
            case 2: first = 3
            default: return nil
            }
        }
        var readings: [SensorReading] = []
        for (index, offset) in model.probes.enumerated() {
            guard let t = b.sbe(offset, 2), let high = b.sbe(offset + 2, 2) else { return nil }
            guard t >= 0 else { continue }
            readings.append(SensorReading(.temperature, Double(t) / 100, decimals: 2, slot: first + index))
            // The alarm set on the probe; below zero, none. The H5198 has a low alarm after it.
            if high >= 0 { readings.append(SensorReading(GoveeProbe.alarmHigh, Double(high) / 100, decimals: 2, slot: first + index)) }
            if model.name == "H5198", let low = b.sbe(offset + 4, 2), low >= 0 {
                readings.append(SensorReading(GoveeProbe.alarmLow, Double(low) / 100, decimals: 2, slot: first + index))
            }
        }
        if let air = model.air, let t = b.sbe(air, 2) { readings.append(SensorReading(.temperature, Double(t) / 100, decimals: 2)) }
        var out = SensorData(model: SensorModel(maker: "Govee", model: model.name), readings: readings)
        out.partial = model.paired
        out.slotsCarried = Set(first..<(first + model.probes.count))
        return out
    }
}
