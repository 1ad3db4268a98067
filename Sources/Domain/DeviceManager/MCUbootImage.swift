// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// An MCUboot image as a file holds it (MCUboot's docs/design.md, "Image format"): the 32-byte
/// header, the image, and the TLVs after it, protected ones first. Read before any byte goes to
/// a device, so a file that is no image is refused with words, and the user sees the version,
/// size and hash the device will report.
public struct MCUbootImage: Equatable, Sendable {
    /// major.minor.revision+build, as the header holds it.
    public struct Version: Equatable, Comparable, Sendable, CustomStringConvertible {
        public let major: UInt8
        public let minor: UInt8
        public let revision: UInt16
        public let build: UInt32

        public init(major: UInt8, minor: UInt8, revision: UInt16, build: UInt32) {
            self.major = major
            self.minor = minor
            self.revision = revision
            self.build = build
        }

        /// "1.2.3", or "1.2.3+4" with a build number, as imgtool and MCUmgr write it.
        public var description: String { "\(major).\(minor).\(revision)" + (build != 0 ? "+\(build)" : "") }

        public static func < (a: Version, b: Version) -> Bool {
            (a.major, a.minor, a.revision, a.build) < (b.major, b.minor, b.revision, b.build)
        }

        /// Reads "1.2.3" or "1.2.3+4", as a device reports a slot's version.
        public init?(_ text: String) {
            let parts = text.split(separator: "+", maxSplits: 1)
            let numbers = parts[0].split(separator: ".").map { UInt32($0) }
            guard (1...3).contains(numbers.count), numbers.allSatisfy({ $0 != nil }) else { return nil }
            let n = numbers.map { $0! } + [0, 0]
            guard n[0] <= 255, n[1] <= 255, n[2] <= 65535 else { return nil }
            let build = parts.count == 2 ? UInt32(parts[1]) : 0
            guard let build else { return nil }
            self.init(major: UInt8(n[0]), minor: UInt8(n[1]), revision: UInt16(n[2]), build: build)
        }
    }

    /// One TLV: its type and value (design.md, "TLV types").
    public struct TLV: Equatable, Sendable {
        public let type: UInt16
        public let value: [UInt8]
        /// In the protected area, which the signature covers.
        public let protected: Bool

        /// The type's name, as imgtool dumpinfo says it.
        public var name: String {
            switch type {
            case 0x01: return "KEYHASH"
            case 0x02: return "PUBKEY"
            case 0x10: return "SHA256"
            case 0x11: return "SHA384"
            case 0x12: return "SHA512"
            case 0x20: return "RSA2048_PSS"
            case 0x22: return "ECDSA_SIG"
            case 0x23: return "RSA3072_PSS"
            case 0x24: return "ED25519"
            case 0x30: return "ENC_RSA2048"
            case 0x31: return "ENC_KW"
            case 0x32: return "ENC_EC256"
            case 0x33: return "ENC_X25519"
            case 0x40: return "DEPENDENCY"
            case 0x50: return "SEC_CNT"
            case 0x60: return "BOOT_RECORD"
            default: return String(format: "0x%02X", type)
            }
        }
    }

    public static let magic: UInt32 = 0x96F3_B83D
    static let tlvMagic: UInt16 = 0x6907
    static let protectedTLVMagic: UInt16 = 0x6908
    /// The largest file read: no microcontroller's slot comes near it, and a 2 GB file is refused unread.
    public static let maximumFileSize = 64 << 20

    public let loadAddress: UInt32
    public let headerSize: Int
    public let imageSize: Int
    public let flags: UInt32
    public let version: Version
    public let tlvs: [TLV]
    /// The whole file's length in bytes: what is uploaded.
    public let fileSize: Int

    /// The image's hash, as the device reports its slots: the SHA-256 (or longer) TLV.
    public var hash: [UInt8]? { tlvs.first { [0x10, 0x11, 0x12].contains($0.type) }?.value }

    /// Reads `bytes` as an MCUboot image; refuses, in words, a file that is not one.
    public static func read(_ bytes: [UInt8]) throws(MCUbootImageProblem) -> MCUbootImage {
        guard bytes.count <= maximumFileSize else { throw .tooLarge(bytes.count) }
        guard bytes.count >= 32 else { throw .notAnImage(L10n.tr("it is shorter than an MCUboot header.")) }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        guard u32(0) == magic else { throw .notAnImage(L10n.tr("it does not start with MCUboot's magic number.")) }
        let headerSize = Int(u16(8)), protectedSize = Int(u16(10)), imageSize = Int(u32(12))
        guard headerSize >= 32 else { throw .notAnImage(L10n.tr("its header says it is shorter than a header.")) }
        let tlvStart = headerSize + imageSize
        guard tlvStart <= bytes.count else {
            throw .truncated(L10n.plural("the image should be {} byte long with its header, and the file ends sooner.",
                                         "the image should be {} bytes long with its header, and the file ends sooner.",
                                         tlvStart, Formats.number(tlvStart)))
        }
        var tlvs: [TLV] = []
        var at = tlvStart
        // The protected area, where there is one, then the other (design.md, "Protected TLVs").
        for (wanted, isProtected) in [(protectedTLVMagic, true), (tlvMagic, false)] {
            if isProtected && protectedSize == 0 { continue }
            guard at + 4 <= bytes.count else { throw .truncated(L10n.tr("the file ends before the image's TLVs.")) }
            guard u16(at) == wanted else {
                throw .notAnImage(isProtected ? L10n.tr("its protected TLVs do not start where the header says.")
                                              : L10n.tr("its TLVs do not start after the image."))
            }
            let total = Int(u16(at + 2))
            if isProtected, total != protectedSize { throw .notAnImage(L10n.tr("its protected TLVs are not as long as the header says.")) }
            guard total >= 4, at + total <= bytes.count else { throw .truncated(L10n.tr("the file ends inside the image's TLVs.")) }
            var t = at + 4
            while t < at + total {
                guard t + 4 <= at + total else { throw .notAnImage(L10n.tr("a TLV is cut off at the end of its area.")) }
                let length = Int(u16(t + 2))
                guard t + 4 + length <= at + total else { throw .notAnImage(L10n.tr("a TLV says it is longer than its area.")) }
                tlvs.append(TLV(type: u16(t), value: Array(bytes[(t + 4)..<(t + 4 + length)]), protected: isProtected))
                t += 4 + length
            }
            at += total
        }
        let image = MCUbootImage(loadAddress: u32(4), headerSize: headerSize, imageSize: imageSize, flags: u32(16),
                                 version: Version(major: bytes[20], minor: bytes[21], revision: u16(22), build: u32(24)),
                                 tlvs: tlvs, fileSize: bytes.count)
        guard image.hash != nil else { throw .notAnImage(L10n.tr("it has no hash TLV, which the device checks it by.")) }
        return image
    }
}

/// Why a file is not an MCUboot image to send, in words.
public enum MCUbootImageProblem: Error, Equatable, Sendable {
    case notAnImage(String)
    case truncated(String)
    case tooLarge(Int)

    public var message: String {
        switch self {
        case .notAnImage(let why): return L10n.format("This is not an MCUboot image: {}", why)
        case .truncated(let why): return L10n.format("The image is cut short: {}", why)
        case .tooLarge(let size):
            return L10n.format("The file is {}, larger than any MCUboot image: choose the signed image (zephyr.signed.bin).",
                               Formats.bytes(size))
        }
    }
}
