// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A broker that gateways publish what they hear to: `mqtt://[user@]host[:port]/PREFIX`, or
/// `mqtts://…` for TLS (with the system's CAs, or `?ca=FILE`). A password never goes in the
/// address: it is kept in the desktop's keyring.
public struct MQTTAddress: Equatable, Sendable, CustomStringConvertible {
    public let tls: Bool
    public let user: String?
    public let host: String
    public let port: UInt16
    /// The topic prefix gateways publish under ("home" for `home/<gateway>/BTtoMQTT/<MAC>`).
    public let prefix: String
    public let caFile: String?

    public init(tls: Bool, user: String?, host: String, port: UInt16, prefix: String, caFile: String? = nil) {
        self.tls = tls
        self.user = user
        self.host = host
        self.port = port
        self.prefix = prefix
        self.caFile = caFile
    }

    public init(parsing text: String) throws(ScanFailure) {
        let tls: Bool
        var rest: Substring
        if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst(8)
        } else if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst(7)
        } else {
            throw .badSource(L10n.format("“{}” is not an MQTT address like mqtt://host/home", text))
        }
        var caFile: String?
        if let query = rest.firstIndex(of: "?") {
            let options = rest[rest.index(after: query)...]
            rest = rest[..<query]
            for option in options.split(separator: "&") {
                guard option.hasPrefix("ca="), option.count > 3 else {
                    throw .badSource(L10n.format("“{}”: the only option is ca=FILE", text))
                }
                caFile = String(option.dropFirst(3))
            }
        }
        guard let slash = rest.firstIndex(of: "/"), rest.index(after: slash) < rest.endIndex else {
            throw .badSource(L10n.format("“{}” needs a topic prefix after the host, like mqtt://host/home", text))
        }
        let prefix = String(rest[rest.index(after: slash)...]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var authority = rest[..<slash]
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            guard !credentials.contains(":") else {
                throw .badSource(L10n.tr("A password does not go in the address: FavBlue asks for it and keeps it in the keyring."))
            }
            user = String(credentials)
            authority = authority[authority.index(after: at)...]
        }
        var host = authority
        var port: UInt16 = tls ? 8883 : 1883
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = UInt16(after.dropFirst()), p > 0 else { throw .badSource(L10n.format("“{}” has a bad port", text)) }
                port = p
            }
        } else if let colon = authority.lastIndex(of: ":") {
            guard let p = UInt16(authority[authority.index(after: colon)...]), p > 0 else {
                throw .badSource(L10n.format("“{}” has a bad port", text))
            }
            port = p
            host = authority[..<colon]
        }
        guard !host.isEmpty, !prefix.isEmpty, !prefix.contains("#"), !prefix.contains("+") else {
            throw .badSource(L10n.format("“{}” needs a host and a topic prefix without wildcards", text))
        }
        self.init(tls: tls, user: user, host: String(host), port: port, prefix: prefix, caFile: caFile)
    }

    /// The address again, never with a password (there is none in it).
    public var description: String {
        let scheme = tls ? "mqtts" : "mqtt"
        let who = user.map { "\($0)@" } ?? ""
        let where_ = host.contains(":") ? "[\(host)]" : host
        let ca = caFile.map { "?ca=\($0)" } ?? ""
        return "\(scheme)://\(who)\(where_):\(port)/\(prefix)\(ca)"
    }

    /// What gateways publish to: `PREFIX/<gateway>/BTtoMQTT/<MAC>`.
    public var subscription: String { "\(prefix)/+/BTtoMQTT/+" }
}
