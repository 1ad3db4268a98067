// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A device's SMP server as a user types it: on the network, "192.168.1.20", "board.local:1337",
/// "[fe80::1]:1337" or "fe80::1" (IPv6 takes a port only in brackets); on a serial line, its
/// device's path, with the speed after an @ ("/dev/ttyACM0@115200").
public struct NetworkTarget: Equatable, Sendable {
    /// MCUmgr's UDP port (Zephyr's CONFIG_MCUMGR_TRANSPORT_UDP_PORT).
    public static let defaultPort: UInt16 = 1337
    public static let defaultBaud = 115_200

    /// The host, or the serial device's path.
    public let host: String
    public let port: UInt16
    /// The line's speed, where the target is a serial line; nil on the network.
    public let baud: Int?

    /// Reads `text`; throws what is wrong with it, in words.
    public init(parsing text: String) throws(NetworkTargetProblem) {
        var rest = text.trimmingCharacters(in: .whitespaces)
        if rest.hasPrefix("/") {
            var baud = Self.defaultBaud
            if let at = rest.lastIndex(of: "@") {
                guard let b = Int(rest[rest.index(after: at)...]), (300...4_000_000).contains(b) else { throw .badBaud }
                baud = b
                rest = String(rest[..<at])
            }
            host = rest
            port = 0
            self.baud = baud
            return
        }
        baud = nil
        var port = Self.defaultPort
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = UInt16(after.dropFirst()), p > 0 else { throw .badPort }
                port = p
            }
            rest = String(rest[rest.index(after: rest.startIndex)..<close])
        } else if let colon = rest.lastIndex(of: ":"), rest.filter({ $0 == ":" }).count == 1 {
            guard let p = UInt16(rest[rest.index(after: colon)...]), p > 0 else { throw .badPort }
            port = p
            rest = String(rest[..<colon])
        }
        guard !rest.isEmpty else { throw .noHost }
        guard rest.allSatisfy({ $0.isLetter || $0.isNumber || ".-_:%".contains($0) }) else { throw .badHost }
        host = rest
        self.port = port
    }
}

/// What is wrong with a typed network address.
public enum NetworkTargetProblem: Error, Equatable, Sendable {
    case noHost
    case badHost
    case badPort
    case badBaud

    public var message: String {
        switch self {
        case .noHost: return L10n.tr("Type the device’s address or name, such as 192.168.1.20.")
        case .badHost: return L10n.tr("That is not an address or a name: use letters, digits, dots and hyphens, such as board.local.")
        case .badPort: return L10n.tr("The port after the colon must be a number from 1 to 65535, such as 1337.")
        case .badBaud: return L10n.tr("The speed after the @ must be a number of bits a second, such as 115200.")
        }
    }
}
