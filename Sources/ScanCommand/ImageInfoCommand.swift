// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import ArgumentParser
import Bluetooth
import DeviceLinks
import Domain
import Foundation

/// A slot in words and in JSON.
enum ImageWords {
    static func line(_ s: ImageSlot) -> String {
        var states: [String] = []
        if s.active { states.append("running") }
        if s.confirmed { states.append("confirmed") }
        if s.pending { states.append(s.permanent ? "will run from now on" : "will run once after a restart") }
        if s.bootable { states.append("bootable") }
        return "image \(s.image) slot \(s.slot): \(DeviceText.terminal(s.version))  \(Hex.compact(s.hash).lowercased())  \(states.joined(separator: ", "))"
    }

    static func json(_ s: ImageSlot) -> JSONValue {
        .object([JSONMember("image", .init(.number(Double(s.image)))), JSONMember("slot", .init(.number(Double(s.slot)))),
                 JSONMember("version", .init(.string(s.version))), JSONMember("hash", .init(.string(Hex.compact(s.hash).lowercased()))),
                 JSONMember("active", .init(.bool(s.active))), JSONMember("confirmed", .init(.bool(s.confirmed))),
                 JSONMember("pending", .init(.bool(s.pending))), JSONMember("permanent", .init(.bool(s.permanent))),
                 JSONMember("bootable", .init(.bool(s.bootable)))])
    }
}

/// `favblue-scan image-info FILE`: an MCUboot image's version, size, hash and TLVs.
struct ImageInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-info",
        abstract: "Print an MCUboot image's version, size, hash and TLVs, as the device will see them.")

    @Argument(help: ArgumentHelp("An MCUboot image (zephyr.signed.bin, app_update.bin).", valueName: "file"))
    var file: String

    @Flag(help: "Print one JSON document.")
    var json = false

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        guard let size else { FavBlueScan.exit(saying: "“\(DeviceText.terminal(file))” could not be read") }
        // A file larger than any image is refused before it is read.
        if size > MCUbootImage.maximumFileSize { FavBlueScan.exit(saying: MCUbootImageProblem.tooLarge(size).message) }
        guard let data = try? Data(contentsOf: url) else { FavBlueScan.exit(saying: "“\(DeviceText.terminal(file))” could not be read") }
        let image: MCUbootImage
        do { image = try MCUbootImage.read(Array(data)) } catch { FavBlueScan.exit(saying: error.message) }
        let hash = Hex.compact(image.hash ?? []).lowercased()
        if json {
            let tlvs: [JSONNode] = image.tlvs.map { t in
                .init(.object([JSONMember("type", .init(.string(t.name))), JSONMember("length", .init(.number(Double(t.value.count)))),
                               JSONMember("protected", .init(.bool(t.protected)))]))
            }
            let doc = JSONValue.object([JSONMember("version", .init(.string(image.version.description))),
                                        JSONMember("size", .init(.number(Double(image.fileSize)))),
                                        JSONMember("imageSize", .init(.number(Double(image.imageSize)))),
                                        JSONMember("loadAddress", .init(.number(Double(image.loadAddress)))),
                                        JSONMember("hash", .init(.string(hash))), JSONMember("tlvs", .init(.array(tlvs)))])
            print(JSONDocument.write(JSONNode(doc)))
        } else {
            print("version: \(image.version)\nsize: \(image.fileSize) bytes (image \(image.imageSize), header \(image.headerSize))\nhash: \(hash)")
            for t in image.tlvs { print("TLV \(t.name): \(t.value.count) bytes\(t.protected ? ", protected" : "")") }
        }
    }
}
