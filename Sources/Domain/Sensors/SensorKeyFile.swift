// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The keys of encrypted sensors as `favblue-scan --sensor-keys FILE` reads them: one device a
/// line, its address and its 16-byte key in hex ("A4:C1:38:00:11:22 231d39c1d7cc1ab1aee224cd096db932");
/// blank lines and lines starting with "#" are skipped.
public enum SensorKeyFile {
    /// Why a line could not be read, in plain words.
    public struct LineError: Error, Sendable, Equatable {
        public let line: Int
        public let reason: String
    }

    /// The keys by address (upper case), or the first line that is wrong.
    public static func parse(_ text: String) throws(LineError) -> [String: [UInt8]] {
        var keys: [String: [UInt8]] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw).trimmingBlanks
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "=" })
            guard parts.count == 2 else { throw LineError(line: index + 1, reason: "expected an address and a key") }
            let address = String(parts[0]).uppercased()
            guard (try? DeviceID(parsing: address, kind: .lePublic)) != nil else {
                throw LineError(line: index + 1, reason: "\(DeviceText.terminal(String(parts[0]))) is not an address")
            }
            guard let key = Hex.bytes(parts[1]), key.count == 16 else {
                throw LineError(line: index + 1, reason: "the key is not 32 hex digits")
            }
            keys[address] = key
        }
        return keys
    }
}
