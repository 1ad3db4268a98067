// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// What a firmware file holds: an MCUboot image (`.bin`), or the nRF Connect SDK's
/// `dfu_application.zip`, whose `manifest.json` names the image for each core. A file is a
/// stranger's: every length and offset is checked, and what does not read is refused in words.
public enum FirmwarePackage {
    /// One image a file holds: the image number it goes to (0, the application; an nRF5340's
    /// network core is 1), its name in the package, and its bytes.
    public struct Member: Equatable, Sendable {
        public let number: Int
        public let name: String
        public let bytes: [UInt8]

        public init(number: Int, name: String, bytes: [UInt8]) {
            self.number = number
            self.name = name
            self.bytes = bytes
        }
    }

    /// MCUboot builds hold a few images at most (an nRF5340 has two cores).
    static let mostImages = 4

    /// The images to send from `bytes`: the file itself (image 0), or each one a package's
    /// manifest names, with the image number its `image_index` gives (else its place).
    /// `inflate` unpacks a deflated member (raw deflate) to `size` bytes, nil where it cannot.
    public static func images(in bytes: [UInt8], inflate: ([UInt8], Int) -> [UInt8]?) throws(FirmwarePackageProblem) -> [Member] {
        guard bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return [Member(number: 0, name: "", bytes: bytes)] }
        let zip = try ZipEntries(bytes)
        guard let manifest = zip.entries.first(where: { $0.name == "manifest.json" }) else { throw .noManifest }
        let text = String(decoding: try zip.contents(of: manifest, inflate: inflate), as: UTF8.self)
        guard let root = try? JSONDocument.parse(text), let files = root["files"]?.array else { throw .badManifest }
        var named: [(number: Int, name: String)] = []
        for (place, file) in files.enumerated() {
            guard let name = file["file"]?.string else { continue }
            // nRF Connect SDK writes the index as text ("1"); a number is taken too.
            let index = file["image_index"]?.string.flatMap { Int($0) } ?? file["image_index"]?.number.flatMap { Int(exactly: $0) }
            if file["image_index"] != nil, index == nil { throw .imageNumbers }
            named.append((index ?? place, name))
        }
        guard !named.isEmpty else { throw .badManifest }
        guard named.count <= Self.mostImages, named.allSatisfy({ (0..<Self.mostImages).contains($0.number) }),
              Set(named.map(\.number)).count == named.count else { throw .imageNumbers }
        return try named.sorted { $0.number < $1.number }.map { (number, name) throws(FirmwarePackageProblem) in
            guard let entry = zip.entries.first(where: { $0.name == name }) else { throw .missing(name) }
            return Member(number: number, name: name, bytes: try zip.contents(of: entry, inflate: inflate))
        }
    }
}

/// Why a firmware package cannot be sent, in words.
public enum FirmwarePackageProblem: Error, Equatable, Sendable {
    case notAZip(String)
    case noManifest
    case badManifest
    case missing(String)
    case imageNumbers
    case compression

    static let highestImage = FirmwarePackage.mostImages - 1

    public var message: String {
        switch self {
        case .notAZip(let why): return L10n.format("This is not a ZIP file FavBlue can read: {}.", why)
        case .noManifest: return L10n.tr("This ZIP file has no manifest.json, so it names no image: use the dfu_application.zip of an nRF Connect SDK build, or its .bin.")
        case .badManifest: return L10n.tr("The package's manifest.json names no image file.")
        case .missing(let name): return L10n.format("The package's manifest names {}, which the package does not hold.", DeviceText.isolated(name))
        case .imageNumbers:
            return L10n.format("The package's manifest gives its images numbers no MCUboot device has: each image needs its own number, from 0 to {}.",
                               Formats.number(Self.highestImage))
        case .compression: return L10n.tr("A file in the package is packed in a way FavBlue cannot unpack.")
        }
    }
}

/// The members of a ZIP file (PKWARE's APPNOTE: the end record, the central directory, the
/// local headers), stored or deflated, each checked against the file's length.
struct ZipEntries {
    struct Entry {
        let name: String
        let method: UInt16
        let compressedSize: Int
        let size: Int
        let localHeader: Int
    }

    let bytes: [UInt8]
    let entries: [Entry]

    init(_ bytes: [UInt8]) throws(FirmwarePackageProblem) {
        self.bytes = bytes
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end record sits in the last 65,557 bytes (its comment is at most 65,535).
        guard bytes.count >= 22 else { throw .notAZip(L10n.tr("it is too short")) }
        var end = bytes.count - 22
        let lowest = max(0, bytes.count - 65_557)
        while end >= lowest, !(bytes[end] == 0x50 && bytes[end + 1] == 0x4B && bytes[end + 2] == 5 && bytes[end + 3] == 6) { end -= 1 }
        guard end >= lowest else { throw .notAZip(L10n.tr("it has no end record")) }
        let count = u16(end + 10), directorySize = u32(end + 12), directory = u32(end + 16)
        guard directory + directorySize <= end else { throw .notAZip(L10n.tr("its directory lies outside the file")) }
        var list: [Entry] = []
        var at = directory
        for _ in 0..<count {
            guard at + 46 <= end, u32(at) == 0x0201_4B50 else { throw .notAZip(L10n.tr("its directory is damaged")) }
            let nameLength = u16(at + 28), extra = u16(at + 30), comment = u16(at + 32)
            guard at + 46 + nameLength <= end else { throw .notAZip(L10n.tr("its directory is damaged")) }
            list.append(Entry(name: String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self), method: UInt16(u16(at + 10)),
                              compressedSize: u32(at + 20), size: u32(at + 24), localHeader: u32(at + 42)))
            at += 46 + nameLength + extra + comment
        }
        entries = list
    }

    /// A member's bytes, unpacked; no member may claim more than the largest image.
    func contents(of entry: Entry, inflate: ([UInt8], Int) -> [UInt8]?) throws(FirmwarePackageProblem) -> [UInt8] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        let at = entry.localHeader
        guard at + 30 <= bytes.count, u16(at) == 0x4B50, u16(at + 2) == 0x0403 else { throw .notAZip(L10n.tr("a member's header is damaged")) }
        let start = at + 30 + u16(at + 26) + u16(at + 28)
        guard entry.size <= MCUbootImage.maximumFileSize, start + entry.compressedSize <= bytes.count else {
            throw .notAZip(L10n.tr("a member is longer than the file"))
        }
        let packed = Array(bytes[start..<(start + entry.compressedSize)])
        switch entry.method {
        case 0: return packed
        case 8:
            guard let unpacked = inflate(packed, entry.size), unpacked.count == entry.size else { throw .compression }
            return unpacked
        default: throw .compression
        }
    }
}
