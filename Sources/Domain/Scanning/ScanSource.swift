// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Where scan reports come from, named by one string in the app and in favblue-scan.
public enum ScanSource: Equatable, Sendable, CustomStringConvertible {
    /// BlueZ over D-Bus when the system's Bluetooth service has an adapter, else the first raw adapter that opens.
    case auto
    /// BlueZ over D-Bus: the default adapter (nil), or the one named ("hci1").
    case bluez(adapter: String?)
    /// A raw HCI socket on adapter `index` (hci0 = 0).
    case hci(Int)
    /// H4 over a unix socket.
    case h4Unix(path: String)
    /// H4 over TCP.
    case h4TCP(host: String, port: UInt16)
    /// H4 over a serial line at `baud`.
    case h4Serial(device: String, baud: Int)
    /// Replay of a btsnoop capture.
    case btsnoop(path: String)
    /// Replay of the capture shipped with FavBlue.
    case demo
    /// Gateways in other rooms, publishing to an MQTT broker.
    case mqtt(MQTTAddress)

    /// Parses "auto", "bluez", "bluez:hciN", "hci0", "h4-unix:PATH", "h4-tcp:HOST:PORT", "h4-serial:DEV[@BAUD]",
    /// "btsnoop:PATH", "demo" or "mqtt[s]://[user@]host[:port]/PREFIX".
    public init(parsing text: String) throws(ScanFailure) {
        let text = text.trimmingBlanks
        func value(after prefix: String) throws(ScanFailure) -> String {
            let rest = String(text.dropFirst(prefix.count))
            guard !rest.isEmpty else { throw .badSource(L10n.format("“{}” needs a value after the colon", text)) }
            return rest
        }
        switch text {
        case "auto", "": self = .auto
        case "demo": self = .demo
        case "bluez": self = .bluez(adapter: nil)
        case _ where text.hasPrefix("bluez:"):
            let name = try value(after: "bluez:")
            _ = try Self.adapterIndex(name)
            self = .bluez(adapter: name)
        case _ where text.hasPrefix("hci"):
            self = .hci(try Self.adapterIndex(text))
        case _ where text.hasPrefix("h4-unix:"):
            self = .h4Unix(path: try value(after: "h4-unix:"))
        case _ where text.hasPrefix("h4-tcp:"):
            let rest = try value(after: "h4-tcp:")
            guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
                throw .badSource(L10n.format("“{}” needs HOST:PORT", text))
            }
            self = .h4TCP(host: String(rest[..<colon]), port: port)
        case _ where text.hasPrefix("h4-serial:"):
            let rest = try value(after: "h4-serial:")
            if let at = rest.lastIndex(of: "@") {
                guard let baud = Int(rest[rest.index(after: at)...]), baud > 0 else {
                    throw .badSource(L10n.format("“{}” has a bad baud rate", text))
                }
                self = .h4Serial(device: String(rest[..<at]), baud: baud)
            } else {
                self = .h4Serial(device: rest, baud: 115_200)
            }
        case _ where text.hasPrefix("btsnoop:"):
            self = .btsnoop(path: try value(after: "btsnoop:"))
        case _ where text.hasPrefix("mqtt://") || text.hasPrefix("mqtts://"):
            self = .mqtt(try MQTTAddress(parsing: text))
        default:
            throw .badSource(L10n.format("unknown source “{}”", text))
        }
    }

    /// The number of an adapter name like "hci0".
    private static func adapterIndex(_ name: String) throws(ScanFailure) -> Int {
        guard name.hasPrefix("hci"), let index = Int(name.dropFirst(3)), index >= 0 else {
            throw .badSource(L10n.format("“{}” is not an adapter name like hci0", name))
        }
        return index
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .bluez(let adapter): return adapter.map { "bluez:\($0)" } ?? "bluez"
        case .hci(let index): return "hci\(index)"
        case .h4Unix(let path): return "h4-unix:\(path)"
        case .h4TCP(let host, let port): return "h4-tcp:\(host):\(port)"
        case .h4Serial(let device, let baud): return "h4-serial:\(device)@\(baud)"
        case .btsnoop(let path): return "btsnoop:\(path)"
        case .demo: return "demo"
        case .mqtt(let address): return address.description
        }
    }
}

/// Continuous scanning, or a window of scanning every so often ("auto scan").
public enum ScanMode: Equatable, Sendable {
    /// Scan until stopped.
    case continuous
    /// Scan for `windowSeconds` every `intervalSeconds`.
    case periodic(windowSeconds: Double, intervalSeconds: Double)
}
