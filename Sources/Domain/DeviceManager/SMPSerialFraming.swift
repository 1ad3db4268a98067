// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// MCUmgr's console framing for a serial line (Zephyr's smp_transport.rst, "Serial"): a
/// message goes with its length before it and its CRC16 (XMODEM) after it, in base64, cut into
/// lines of at most `lineLength` bytes, the first starting 06 09 and each next one 04 14, each
/// ending in a line feed. Pure: the serial link reads and writes the bytes.
public enum SMPSerialFraming {
    static let start: [UInt8] = [0x06, 0x09]
    static let more: [UInt8] = [0x04, 0x14]
    /// Zephyr's line buffer (CONFIG_UART_MCUMGR_RX_BUF_SIZE) takes 128 bytes; a line and its end fit in 127.
    public static let lineLength = 127

    /// The lines that carry `message`, ready to write.
    public static func encode(_ message: [UInt8], lineLength: Int = lineLength) -> [[UInt8]] {
        let crc = crc16(message)
        let whole = [UInt8(truncatingIfNeeded: (message.count + 2) >> 8), UInt8(truncatingIfNeeded: message.count + 2)]
            + message + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        let text = Array(Data(whole).base64EncodedString().utf8)
        // Room for the two marker bytes and the line feed, in whole base64 quads.
        let size = max(4, (lineLength - 4) / 4 * 4)
        var lines: [[UInt8]] = []
        var at = 0
        repeat {
            let end = min(at + size, text.count)
            lines.append((at == 0 ? start : more) + text[at..<end] + [0x0A])
            at = end
        } while at < text.count
        return lines
    }

    /// CRC-16/XMODEM (polynomial 0x1021, initial 0), as Zephyr's crc16_itu_t.
    public static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }

    /// Takes the line-framed bytes a device sends, among other console output, and gives back
    /// each whole message. A device is a stranger: lines that do not read are skipped, and no
    /// message grows past `limit`.
    public struct Decoder: Sendable {
        private var line: [UInt8] = []
        private var text: [UInt8] = []
        private var inFrame = false
        public let limit: Int

        public init(limit: Int = 1 << 16) { self.limit = limit }

        /// Adds bytes as they came; returns the messages they complete, and what was wrong with
        /// any frame that ended badly, in words.
        public mutating func add(_ bytes: [UInt8]) -> (messages: [[UInt8]], problems: [String]) {
            var messages: [[UInt8]] = []
            var problems: [String] = []
            for byte in bytes {
                guard byte == 0x0A else {
                    // A line longer than any frame's is console noise: dropped as it comes.
                    if line.count < 4 * limit / 3 + 8 { line.append(byte) }
                    continue
                }
                defer { line = [] }
                let body: ArraySlice<UInt8>
                if line.starts(with: SMPSerialFraming.start) {
                    inFrame = true
                    text = []
                    body = line.dropFirst(2)
                } else if line.starts(with: SMPSerialFraming.more), inFrame {
                    body = line.dropFirst(2)
                } else {
                    continue  // the console's own output
                }
                text += body.filter { $0 != 0x0D }
                guard text.count <= 4 * limit / 3 + 8 else {
                    problems.append(L10n.tr("A frame from the device grew longer than any message."))
                    inFrame = false
                    text = []
                    continue
                }
                guard text.count % 4 == 0, let decoded = Data(base64Encoded: Data(text)).map({ [UInt8]($0) }), decoded.count >= 2 else {
                    continue
                }
                let length = Int(decoded[0]) << 8 | Int(decoded[1])
                guard decoded.count - 2 >= length else { continue }  // more lines to come
                inFrame = false
                guard length >= 2, decoded.count - 2 == length else {
                    problems.append(L10n.tr("A frame from the device was longer than its length says."))
                    continue
                }
                let message = Array(decoded[2..<(decoded.count - 2)])
                let crc = UInt16(decoded[decoded.count - 2]) << 8 | UInt16(decoded[decoded.count - 1])
                guard crc == SMPSerialFraming.crc16(message) else {
                    problems.append(L10n.tr("A frame from the device failed its CRC check: the line may be noisy."))
                    continue
                }
                messages.append(message)
            }
            return (messages, problems)
        }
    }
}
