// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// Private-address resolution benchmark (release build, one core):
// 1,000,000 advertising reports from 5,000 devices, 5,000 a second, so 200 s of a room.
// 1,000 of the devices use resolvable private addresses that change every 60 s; 100 of
// those are bonded. Measured in one run:
//   1. the device table folding every report (what favblue-scan does per report);
//   2. resolving every report's address with no bonds, then with the 100 bonds;
// and printed: the resolution cost per report in ns, the AES blocks it took, what the
// resolver remembers, and (table + resolution with bonds) / (table + resolution without)
// as the cost of resolution relative to folding alone.
//
//   ResolveBench
//   ResolveBench --write CAPTURE KEYS   (the same reports as a btsnoop capture, and the 100
//                                        bonds as a keys file for favblue-scan --keys; see
//                                        Benchmarks/resolve-scan/run.py)

import Bluetooth
import Domain
import Foundation
import SecurityToolbox

let reports = 1_000_000
let devices = 5_000
let rotating = 1_000
let bonded = 100
let perSecond = 5_000
let rotation = 60

func key(_ n: Int) -> IdentityResolvingKey {
    IdentityResolvingKey(bytes: [UInt8(n >> 8), UInt8(n & 0xFF)] + (2..<16).map { UInt8(truncatingIfNeeded: n &* 31 &+ $0 &* 7) })!
}

/// Device `n`'s address in rotation period `epoch`, most significant octet first.
func address(_ n: Int, epoch: Int) -> DeviceID {
    guard n < rotating else {
        // Static random (top bits 11): never resolved.
        return DeviceID(octets: [0xC6, 0x55, 0x44, 0x33, UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)], kind: .leRandom)
    }
    let prand = UInt32(0x40_0000) | UInt32((n * 64 + epoch) & 0x3F_FFFF)
    let hash = (try? Toolbox.ah(irk: key(n).bytes, prand: prand)) ?? 0
    let value = UInt64(prand) << 24 | UInt64(hash)
    return DeviceID(octets: (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - UInt64($0)))) }, kind: .leRandom)
}

/// A legacy LE Advertising Report for `id`.
func event(_ id: DeviceID, n: Int, rssi: Int8) -> [UInt8] {
    let name = Array("Dev \(n)".utf8)
    let ad: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name + [0x05, 0xFF, 0x4C, 0x00, 0x01, 0x02]
    let body: [UInt8] = [0x02, 0x01, 0x00, 0x01] + id.octets.reversed() + [UInt8(ad.count)] + ad + [UInt8(bitPattern: rssi)]
    return [0x3E, UInt8(body.count)] + body
}

print("building \(reports) reports…")
let epochs = reports / perSecond / rotation + 1
var addresses: [[DeviceID]] = (0..<devices).map { n in (0..<(n < rotating ? epochs : 1)).map { address(n, epoch: $0) } }
var heard: [DeviceID] = []
var events: [[UInt8]] = []
heard.reserveCapacity(reports)
events.reserveCapacity(reports)
for r in 0..<reports {
    let n = r % devices
    let epoch = n < rotating ? (r / perSecond) / rotation : 0
    let id = addresses[n][epoch]
    heard.append(id)
    events.append(event(id, n: n, rssi: Int8(-40 - (r % 50))))
}
let base = Date(timeIntervalSince1970: 1_700_000_000)
let bonds = (0..<bonded).map { ResolvingBond(identity: DeviceID(octets: [0xC4, 0, 0, 0, 0, UInt8($0)], kind: .leRandom), irk: key($0)) }

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--write" {
    let writer = try BtsnoopWriter(path: arguments[2])
    for (i, e) in events.enumerated() {
        try writer.append(type: .event, bytes: e, received: true, at: base.addingTimeInterval(Double(i) / Double(perSecond)))
    }
    writer.close()
    let lines = bonds.map { "\($0.identity.storageKey) \($0.irk.bytes.map { String(format: "%02X", $0) }.joined())" }
    try ("# identity address and Identity Resolving Key, one bonded device a line\n" + lines.joined(separator: "\n") + "\n")
        .write(toFile: arguments[3], atomically: true, encoding: .utf8)
    print("wrote \(events.count) reports to \(arguments[2]) and \(bonds.count) keys to \(arguments[3])")
    exit(0)
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

var table = DeviceTable()
let folding = seconds {
    for (i, e) in events.enumerated() { _ = try? table.add(event: e[...], at: base.addingTimeInterval(Double(i) / Double(perSecond))) }
}
/// What the resolver used before: swift-crypto's one-block AES, its key schedule made on every call.
struct PermuteHashing: AddressHashing {
    func ah(irk: IdentityResolvingKey, prand: UInt32) -> UInt32 { (try? Toolbox.ah(irk: irk.bytes, prand: prand)) ?? .max }
}

var none = PrivateAddressResolver(hashing: AESAddressHashing())
var hits = 0
let unbonded = seconds { for id in heard where none.resolve(id) != nil { hits += 1 } }
var resolver = PrivateAddressResolver(hashing: AESAddressHashing(), bonds: bonds)
var resolved = 0
let withBonds = seconds { for id in heard where resolver.resolve(id) != nil { resolved += 1 } }
var permuting = PrivateAddressResolver(hashing: PermuteHashing(), bonds: bonds)
var resolvedBefore = 0
let withBondsBefore = seconds { for id in heard where permuting.resolve(id) != nil { resolvedBefore += 1 } }
let expected = (0..<reports).filter { $0 % devices < bonded }.count

print(String(format: "fold, %d reports: %.3f s (%.0f ns a report)", reports, folding, folding / Double(reports) * 1e9))
print(String(format: "resolution, no bonds: %.3f s (%.1f ns a report)", unbonded, unbonded / Double(reports) * 1e9))
print(String(format: "resolution, %d bonds: %.3f s (%.1f ns a report), %d AES blocks, %d answers remembered",
             bonded, withBonds, withBonds / Double(reports) * 1e9, resolver.hashesComputed, resolver.remembered))
print(String(format: "  the same with swift-crypto's one-block AES (key schedule every call): %.3f s (%.1f ns a report)",
             withBondsBefore, withBondsBefore / Double(reports) * 1e9))
// The AES alone, as many blocks as the resolution took, through the same prepared keys:
// what is left of the resolution's time is the resolver's own bookkeeping.
let blocks = resolver.hashesComputed
var sink: UInt32 = 0
@MainActor func aes(_ hashing: any AddressHashing) -> Double {
    let prepared = bonds.map { hashing.prepared($0.irk) }
    return seconds { for i in 0..<blocks { sink ^= prepared[i % prepared.count](UInt32(0x40_0000 | i & 0x3F_FFFF)) } }
}
let aesNow = aes(AESAddressHashing())
let aesBefore = aes(PermuteHashing())
print(String(format: "AES share: Nettle, key schedule kept per bond: %.3f s (%.0f ns a block, %.0f %% of resolution)",
             aesNow, aesNow / Double(max(blocks, 1)) * 1e9, aesNow / withBonds * 100))
print(String(format: "           swift-crypto one-block permute: %.3f s (%.0f ns a block, %.0f %% of its resolution)%@",
             aesBefore, aesBefore / Double(max(blocks, 1)) * 1e9, aesBefore / withBondsBefore * 100, sink == 0x1_000_000 ? " " : ""))
print("resolved: \(resolved) reports of bonded devices (expected \(expected)), \(hits) without bonds")
print(String(format: "ratio (fold + resolution with bonds) / (fold + resolution without): %.3f× (swift-crypto: %.3f×)",
             (folding + withBonds) / (folding + unbonded), (folding + withBondsBefore) / (folding + unbonded)))
if resolved != expected || resolvedBefore != expected || hits != 0 { print("FAILED: resolution is wrong"); exit(1) }
