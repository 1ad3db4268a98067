// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import TestSupport
import XCTest

/// The rig BumblePairingTests pair with: a pairer and a connector on the peer's controller, the
/// bonds they keep, the questions they are asked, and the peer's own word on the keys.
extension BumblePairingTests {
    /// The bonds a test's pairer kept, as the app's owner of the bonds would.
    final class Bonds: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [DeviceID: Bond] = [:]
        let keyring = HCIKeyring(hashing: AESAddressHashing(), local: LocalIdentity(random: ToolboxPairingCrypto().random(22)))

        var all: [Bond] { lock.withLock { Array(kept.values) } }

        func keep(_ bond: Bond) {
            let list = lock.withLock { kept[bond.identity] = bond; return Array(kept.values) }
            keyring.set(list)
        }

        func forget(_ identity: DeviceID) {
            let list = lock.withLock { kept[identity] = nil; return Array(kept.values) }
            keyring.set(list)
        }
    }

    /// A pairer and a connector on the peer's controller, sharing one link as the app's do.
    struct Rig {
        let link: HCILink
        let connector: HCILinkConnector
        let pairer: HCIPairer
        let bonds: Bonds
        let log: EventLog
        /// Where the app's live model would say each device is heard now.
        let addresses: HeardAddresses
    }

    func rig(_ peer: ChatPeer, bonds: Bonds = Bonds(), attributes: LocalAttributes = LocalAttributes()) -> Rig {
        let port = peer.port
        let debug: @Sendable (String) -> Void = { line in
            if ProcessInfo.processInfo.environment["FAVBLUE_DEBUG"] != nil { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
        let link = HCILink(open: { () throws(ScanFailure) -> HCITransport in try TransportOpener.tcp(host: "127.0.0.1", port: port) },
                           attributes: attributes, log: debug)
        let connector = HCILinkConnector(link: link, log: debug)
        let addresses = HeardAddresses()
        connector.addresses = addresses
        let security = HCISecurity(crypto: ToolboxPairingCrypto(), keyring: bonds.keyring,
                                   keep: { bonds.keep($0) }, forget: { bonds.forget($0) })
        return Rig(link: link, connector: connector, pairer: HCIPairer(connector: connector, security: security), bonds: bonds,
                   log: EventLog(connector), addresses: addresses)
    }

    /// Answers every question with `answer(question)`, and keeps the questions asked.
    final class Questions: @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [PairingQuestion] = []
        private var withdrawn = 0
        private var lost: [DeviceID] = []
        private var requests: [DeviceID] = []
        private var task: Task<Void, Never>?

        init(_ pairer: HCIPairer, answer: @escaping @Sendable (PairingQuestion) -> PairingAnswer?) {
            let feed = pairer.prompts
            task = Task.detached { [weak self] in
                for await event in feed {
                    switch event {
                    case .ask(let prompt):
                        self?.lock.withLock { self?.asked.append(prompt.question) }
                        if let reply = answer(prompt.question) { prompt.answer(reply) }
                    case .withdrawn:
                        self?.lock.withLock { self?.withdrawn += 1 }
                    case .keyLost(let device):
                        self?.lock.withLock { self?.lost.append(device) }
                    case .requested(let device):
                        self?.lock.withLock { self?.requests.append(device) }
                    case .changed, .codeWanted:
                        break
                    }
                }
            }
        }

        deinit { task?.cancel() }

        var list: [PairingQuestion] { lock.withLock { asked } }
        var withdrawals: Int { lock.withLock { withdrawn } }
        var lostKeys: [DeviceID] { lock.withLock { lost } }
        var requested: [DeviceID] { lock.withLock { requests } }

    }

    func pair(_ rig: Rig, _ device: DeviceID = ChatPeer.first) async -> Result<DeviceID, PairingFailure> {
        do {
            return .success(try await rig.pairer.pair(device))
        } catch {
            return .failure(error)
        }
    }

    /// The bytes of a hex text.
    func bytes(_ hex: Substring) -> [UInt8] {
        stride(from: 0, to: hex.count - 1, by: 2).map {
            UInt8(hex[hex.index(hex.startIndex, offsetBy: $0) ..< hex.index(hex.startIndex, offsetBy: $0 + 2)], radix: 16) ?? 0
        }
    }

    /// The LTK and FavBlue's IRK as the peer kept them, most significant octet first (Bumble prints them as they travel).
    func peerKeys(_ peer: ChatPeer) -> (ltk: [UInt8], irk: [UInt8]?)? {
        guard let line = peer.wait(for: { $0.hasPrefix("PAIRED ") }) else { return nil }
        let words = line.split(separator: " ")
        guard words.count >= 3 else { return nil }
        return (bytes(words[1]).reversed(), words[2] == "-" ? nil : bytes(words[2]).reversed())
    }

    /// Pairs, typing here the code the peer prints.
    func pairTypingThePeersCode(_ rig: Rig, _ peer: ChatPeer) async -> (Result<DeviceID, PairingFailure>, Questions) {
        let questions = Questions(rig.pairer) { question in
            guard question == .enterPasskey, let line = peer.wait(for: { $0.hasPrefix("PASSKEY ") }),
                  let code = UInt32(line.dropFirst(8)) else { return .declined }
            return .passkey(code)
        }
        return (await pair(rig), questions)
    }
}
