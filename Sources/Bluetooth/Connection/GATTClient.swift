// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// GATT procedures over one ATT bearer (Core v5.4, Vol 3, Part G, §4): MTU exchange, primary
/// service discovery by UUID and in full, characteristic and descriptor discovery, and the
/// CCCD write that subscribes. Blocking; runs on the connector's worker.
struct GATTClient {
    let bearer: ATTBearer

    /// What a chat needs once found.
    struct FoundChat {
        let channel: HCIConnector.ChatChannel
        let cccd: UInt16
        let indicate: Bool
    }

    /// Exchange MTU (§4.3.1); the ATT_MTU becomes the smaller of both.
    func exchangeMTU(_ mine: Int, within: Double? = nil) throws(ATTError) {
        switch try bearer.request(.exchangeMTURequest(mtu: UInt16(mine)), within: within) {
        case .exchangeMTUResponse(let theirs): bearer.mtu = min(mine, Int(theirs))
        case let other: throw .unexpected(L10n.format("answer 0x{} to Exchange MTU", String(other.opcode, radix: 16)))
        }
    }

    /// The preferred chat service among `services` (every primary service, listed while
    /// connecting) with usable characteristics, or nil. Taken from the list the connection asks
    /// for anyway, not asked for by UUID: a device without a chat costs no round trip more.
    func findChat(in services: [ServiceRange]) throws(ATTError) -> FoundChat? {
        for profile in ChatProfile.preferred {
            guard let range = services.first(where: { $0.uuid == profile.service }),
                  let found = try chat(profile, in: range) else { continue }
            return found
        }
        return nil
    }

    /// Discover All Primary Services (§4.4.1), in handle order.
    func primaryServices() throws(ATTError) -> [ServiceRange] {
        var services: [ServiceRange] = []
        var start: UInt16 = 0x0001
        while true {
            let answer: ATTPDU
            do {
                answer = try bearer.request(.readByGroupTypeRequest(start: start, end: 0xFFFF, type: .primaryService))
            } catch .error(.attributeNotFound, _, _) {
                break
            }
            guard case .readByGroupTypeResponse(let groups) = answer else {
                throw .unexpected(L10n.tr("a bad answer to Read By Group Type"))
            }
            let found = try decoded { () throws(DecodeError) in try groups.map { g throws(DecodeError) in try ServiceRange(g) } }
            services += found
            // Each answer must move forward, or a broken server would keep us here.
            guard let last = found.last?.end, last >= start, last < 0xFFFF else { break }
            start = last + 1
        }
        return services
    }

    /// Discover All Characteristics of a Service (§4.6.1).
    func characteristics(in service: ServiceRange) throws(ATTError) -> [CharacteristicDeclaration] {
        try characteristics(from: service.start, to: service.end)
    }

    /// Every characteristic declaration from `start` to `end`: Read By Type over the range, as
    /// many declarations an answer as the MTU holds.
    private func characteristics(from start: UInt16, to end: UInt16) throws(ATTError) -> [CharacteristicDeclaration] {
        var declarations: [CharacteristicDeclaration] = []
        var start = start
        while start <= end {
            let answer: ATTPDU
            do {
                answer = try bearer.request(.readByTypeRequest(start: start, end: end, type: .characteristic))
            } catch .error(.attributeNotFound, _, _) {
                break
            }
            guard case .readByTypeResponse(let entries) = answer else {
                throw .unexpected(L10n.tr("a bad answer to Read By Type"))
            }
            let found = try decoded { () throws(DecodeError) in
                try entries.map { e throws(DecodeError) in try CharacteristicDeclaration(e) }
            }
            declarations += found
            guard let last = found.last, last.handle >= start, last.handle < end else { break }
            // A value lies right after its declaration (§3.3.2): the next declaration can come no
            // sooner, so a last value at the range's end needs no request that finds nothing.
            start = last.valueHandle == last.handle + 1 ? last.valueHandle &+ 1 : last.handle + 1
            if start == 0 { break }
        }
        return declarations
    }

    /// The CCCD's handle among the descriptors in a range, or nil.
    func cccd(from start: UInt16, to end: UInt16) throws(ATTError) -> UInt16? {
        try descriptors(from: start, to: end).first { $0.uuid == .clientCharacteristicConfiguration }?.handle
    }

    /// The whole tree (§4.4.1, §4.5.1, §4.6.1, §4.7.1): every primary service, what it includes,
    /// every characteristic and every descriptor, with their handles.
    /// With `primaries` (found while connecting), the services are not asked for again.
    /// Includes and characteristics are asked for across all the services at once, each answer
    /// as full as the MTU allows, then shared out by handle: a round trip for each service saved.
    func discoverAll(primaries: [ServiceRange]? = nil) throws(ATTError) -> [GATTService] {
        var tree: [GATTService] = []
        let ranges: [ServiceRange]
        if let primaries { ranges = primaries } else { ranges = try primaryServices() }
        guard let first = ranges.map(\.start).min(), let last = ranges.map(\.end).max() else { return [] }
        let allIncludes = try includes(from: first, to: last)
        let allDeclarations = try characteristics(from: first, to: last)
        // A characteristic's descriptors lie between its value and the next declaration (or the service end).
        var spans: [[ClosedRange<UInt16>?]] = []
        for range in ranges {
            let declarations = allDeclarations.filter { range.start <= $0.handle && $0.handle <= range.end }
            spans.append(declarations.enumerated().map { index, declaration in
                let end = index + 1 < declarations.count ? declarations[index + 1].handle - 1 : range.end
                return declaration.valueHandle < end ? declaration.valueHandle + 1...end : nil
            })
        }
        let allDescriptors = try descriptors(in: spans.flatMap { $0.compactMap { $0 } }.sorted { $0.lowerBound < $1.lowerBound })
        for (r, range) in ranges.enumerated() {
            var service = GATTService(uuid: range.uuid, name: range.uuid.serviceID.name, start: range.start, end: range.end)
            service.includes = allIncludes.filter { range.start <= $0.handle && $0.handle <= range.end }.map(\.include)
            let declarations = allDeclarations.filter { range.start <= $0.handle && $0.handle <= range.end }
            for (index, declaration) in declarations.enumerated() {
                let descriptors = spans[r][index].map { span in allDescriptors.filter { span.contains($0.handle) } } ?? []
                let uuid = declaration.uuid
                service.characteristics.append(GATTCharacteristic(
                    uuid: uuid, name: AttributeNames.characteristic(uuid), handle: declaration.handle,
                    valueHandle: declaration.valueHandle, properties: declaration.properties,
                    descriptors: descriptors.map {
                        GATTDescriptor(uuid: $0.uuid, name: AttributeNames.descriptor($0.uuid), handle: $0.handle)
                    }))
            }
            tree.append(service)
        }
        return tree
    }

    /// Find Included Services (§4.5.1) from `start` to `end`, each with its declaration's handle.
    /// A 128-bit UUID is not in the answer: it is read from the included service's declaration.
    private func includes(from start: UInt16, to end: UInt16) throws(ATTError) -> [(handle: UInt16, include: GATTInclude)] {
        var found: [(handle: UInt16, include: GATTInclude)] = []
        var start = start
        while start <= end {
            let answer: ATTPDU
            do {
                answer = try bearer.request(.readByTypeRequest(start: start, end: end, type: BluetoothUUID.include))
            } catch .error(.attributeNotFound, _, _) {
                break
            }
            guard case .readByTypeResponse(let entries) = answer else { throw .unexpected(L10n.tr("a bad answer to Read By Type")) }
            for entry in entries where entry.value.count >= 4 {
                let first = UInt16(entry.value[0]) | UInt16(entry.value[1]) << 8
                let last = UInt16(entry.value[2]) | UInt16(entry.value[3]) << 8
                var uuid = BluetoothUUID(attWire: entry.value.dropFirst(4))
                if uuid == nil, case .readResponse(let value)? = try? bearer.request(.readRequest(handle: first)) {
                    uuid = BluetoothUUID(attWire: value)
                }
                found.append((entry.handle, GATTInclude(uuid: uuid, start: first, end: last)))
            }
            guard let last = entries.last?.handle, last >= start, last < end else { break }
            start = last + 1
        }
        return found
    }

    /// Discover All Characteristic Descriptors (§4.7.1) in each of `spans` (in handle order, apart).
    /// Each Find Information runs on to the last span's end, so an answer that reaches past one
    /// span into the next (the attributes between them of the same UUID width) saves a round
    /// trip; what lies outside every span is left out. Each request starts inside a span, so it
    /// never takes more round trips than asking span by span.
    private func descriptors(in spans: [ClosedRange<UInt16>]) throws(ATTError) -> [HandleUUID] {
        guard let end = spans.last?.upperBound else { return [] }
        var found: [HandleUUID] = []
        var index = 0
        var next = spans[0].lowerBound
        while index < spans.count {
            let from = max(next, spans[index].lowerBound)
            guard from <= spans[index].upperBound else {
                index += 1
                continue
            }
            let answer: ATTPDU
            do {
                answer = try bearer.request(.findInformationRequest(start: from, end: end))
            } catch .error(.attributeNotFound, _, _) {
                break
            }
            guard case .findInformationResponse(let list) = answer else {
                throw .unexpected(L10n.tr("a bad answer to Find Information"))
            }
            found += list.filter { entry in spans.contains { $0.contains(entry.handle) } }
            guard let last = list.last?.handle, last >= from, last < end else { break }
            next = last + 1
        }
        return found
    }

    /// Discover All Characteristic Descriptors (§4.7.1) in a range.
    func descriptors(from start: UInt16, to end: UInt16) throws(ATTError) -> [HandleUUID] {
        start <= end ? try descriptors(in: [start...end]) : []
    }

    /// Read Characteristic Value (§4.8.1), then Read Long Characteristic Values (§4.8.3) while
    /// each part fills the MTU, up to the 512 bytes an attribute may hold (§3.2.9).
    func read(_ handle: UInt16) throws(ATTError) -> [UInt8] {
        guard case .readResponse(var value) = try bearer.request(.readRequest(handle: handle)) else {
            throw .unexpected(L10n.tr("a bad answer to Read"))
        }
        while value.count % (bearer.mtu - 1) == 0, !value.isEmpty, value.count < 512 {
            let part: [UInt8]
            do throws(ATTError) {
                guard case .readBlobResponse(let blob) = try bearer.request(.readBlobRequest(handle: handle, offset: UInt16(value.count)))
                else { throw .unexpected(L10n.tr("a bad answer to Read Blob")) }
                part = blob
            } catch .error(.attributeNotLong, _, _) {  // it was whole
                break
            } catch .error(.invalidOffset, _, _) {
                break
            }
            value += part
            if part.count < bearer.mtu - 1 { break }
        }
        return Array(value.prefix(512))
    }

    /// Write Characteristic Value (§4.9.3), or, for a value longer than ATT_MTU−3, Write Long
    /// Characteristic Values (§4.9.4): Prepare Write for each part, each echo checked, then
    /// Execute Write. A part that comes back changed, or any failure midway, cancels the queue.
    func write(_ handle: UInt16, _ value: [UInt8]) throws(ATTError) {
        if value.count <= bearer.mtu - 3 {
            guard try bearer.request(.writeRequest(handle: handle, value: value)) == .writeResponse else {
                throw .unexpected(L10n.tr("a bad answer to Write"))
            }
            return
        }
        let size = bearer.mtu - 5
        var offset = 0
        do throws(ATTError) {
            while offset < value.count {
                let part = Array(value[offset ..< min(offset + size, value.count)])
                let prepare = ATTPDU.prepareWriteRequest(handle: handle, offset: UInt16(offset), value: part)
                guard case .prepareWriteResponse(handle, UInt16(offset), part) = try bearer.request(prepare) else {
                    throw .unexpected(L10n.tr("the device changed a part of the value while it was written"))
                }
                offset += part.count
            }
            guard try bearer.request(.executeWriteRequest(commit: true)) == .executeWriteResponse else {
                throw .unexpected(L10n.tr("a bad answer to Execute Write"))
            }
        } catch {
            // Nothing half-written stays queued on the device.
            if case .linkEnded = error {} else { _ = try? bearer.request(.executeWriteRequest(commit: false)) }
            throw error
        }
    }

    /// Writes the CCCD (§3.3.3.3): 0x0001 notifications, or 0x0002 indications.
    func subscribe(_ cccd: UInt16, indicate: Bool) throws(ATTError) {
        let answer = try bearer.request(.writeRequest(handle: cccd, value: indicate ? [0x02, 0x00] : [0x01, 0x00]))
        guard answer == .writeResponse else { throw .unexpected(L10n.tr("a bad answer to the subscription")) }
    }

    /// The chat characteristics of `profile` in `service`, if TX can notify (or indicate)
    /// and RX can be written.
    private func chat(_ profile: ChatProfile, in service: ServiceRange) throws(ATTError) -> FoundChat? {
        let declarations = try characteristics(in: service)
        guard let index = declarations.firstIndex(where: { $0.uuid == profile.tx }),
              let rx = declarations.first(where: { $0.uuid == profile.rx }) else { return nil }
        let tx = declarations[index]
        let notify = tx.properties.contains(.notify)
        guard notify || tx.properties.contains(.indicate),
              !rx.properties.intersection([.write, .writeWithoutResponse]).isEmpty else { return nil }
        // TX's descriptors lie between its value and the next declaration (or the service end).
        let end = index + 1 < declarations.count ? declarations[index + 1].handle - 1 : service.end
        guard tx.valueHandle < end, let cccd = try cccd(from: tx.valueHandle + 1, to: end) else { return nil }
        let service: ChatService = profile == .chat ? .chat : .nordicUART
        let channel = HCIConnector.ChatChannel(service: service, txValue: tx.valueHandle, rxValue: rx.valueHandle,
                                               writeWithResponse: rx.properties.contains(.write))
        return FoundChat(channel: channel, cccd: cccd, indicate: !notify)
    }

    /// Runs a parse, turning a malformed answer into an ATT error.
    private func decoded<T>(_ parse: () throws(DecodeError) -> T) throws(ATTError) -> T {
        do { return try parse() } catch { throw .unexpected(L10n.format("a malformed answer: {}", "\(error)")) }
    }
}
