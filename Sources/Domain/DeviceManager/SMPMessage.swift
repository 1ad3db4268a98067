// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One MCUmgr SMP message: the 8-byte header and its CBOR body (Zephyr's
/// doc/services/device_mgmt/smp_protocol.rst). Every transport carries these whole.
public struct SMPMessage: Equatable, Sendable {
    /// Read and write requests, and their responses (the header's OP, 3 bits).
    public enum Operation: UInt8, Sendable {
        case read = 0, readResponse = 1, write = 2, writeResponse = 3
    }

    public var operation: Operation
    /// 1 for SMP version 2 (errors as {"err": {"group", "rc"}}), 0 for version 1 ({"rc"}).
    public var version: UInt8
    public var flags: UInt8
    public var group: UInt16
    public var sequence: UInt8
    public var command: UInt8
    public var body: CBOR

    /// The header's length in bytes.
    public static let headerLength = 8

    public init(operation: Operation, version: UInt8 = 1, flags: UInt8 = 0, group: UInt16, sequence: UInt8, command: UInt8, body: CBOR) {
        self.operation = operation
        self.version = version
        self.flags = flags
        self.group = group
        self.sequence = sequence
        self.command = command
        self.body = body
    }

    /// Header and body, as sent.
    public var bytes: [UInt8] {
        let payload = body.encoded
        return [(version & 0x03) << 3 | operation.rawValue, flags, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF),
                UInt8(group >> 8), UInt8(group & 0xFF), sequence, command] + payload
    }

    /// The whole message's length a header announces, header included; nil before 8 bytes came.
    public static func announcedLength(_ start: ArraySlice<UInt8>) -> Int? {
        guard start.count >= headerLength else { return nil }
        let i = start.startIndex
        return headerLength + (Int(start[i + 2]) << 8 | Int(start[i + 3]))
    }

    /// Reads one whole message: a header whose length is what follows, and its CBOR.
    public static func decode(_ bytes: [UInt8]) throws(SMPProblem) -> SMPMessage {
        guard bytes.count >= headerLength else { throw .malformed(L10n.tr("The device's answer is shorter than its header.")) }
        guard let length = announcedLength(bytes[...]), length == bytes.count else {
            throw .malformed(L10n.tr("The device's answer is not as long as its header says."))
        }
        guard let operation = Operation(rawValue: bytes[0] & 0x07) else {
            throw .malformed(L10n.format("The device's answer has an unknown operation ({}).", String(bytes[0] & 0x07)))
        }
        let body: CBOR
        do { body = try CBOR.decode(Array(bytes[headerLength...])) } catch { throw .malformed(error.message) }
        return SMPMessage(operation: operation, version: bytes[0] >> 3 & 0x03, flags: bytes[1], group: UInt16(bytes[4]) << 8 | UInt16(bytes[5]),
                          sequence: bytes[6], command: bytes[7], body: body)
    }

    /// The error a response carries, in either form, or nil for success.
    public var error: SMPError? {
        if let err = body["err"], let rc = err["rc"]?.int {
            return rc == 0 ? nil : SMPError(group: UInt16(clamping: err["group"]?.int ?? Int64(group)), code: rc, groupCode: true)
        }
        if let rc = body["rc"]?.int, rc != 0 { return SMPError(group: group, code: rc, groupCode: false) }
        return nil
    }
}

/// The MCUmgr groups FavBlue speaks (smp_groups/smp_group_{0,1,2,8,9}.rst).
public enum SMPGroup: UInt16, Sendable {
    case os = 0, image = 1, statistics = 2, settings = 3, fileSystem = 8, shell = 9
}

/// What went wrong talking to a device: its own error, or the exchange itself.
public enum SMPProblem: Error, Equatable, Sendable {
    /// The device answered with an error.
    case device(SMPError)
    /// An answer that is not SMP as the protocol lays it out.
    case malformed(String)
    /// No answer in time.
    case timedOut
    /// The link to the device went.
    case disconnected(String)
    /// The device's answer lacks what the request asks for.
    case unexpected(String)
    /// The user stopped it.
    case cancelled
    /// The device answers its Device Manager on a paired link only (Insufficient Encryption or
    /// Authentication when FavBlue subscribed), as Nordic's nRF Desktop sets it.
    case needsPairing

    /// In words, ending in what to do where there is something.
    public var message: String {
        switch self {
        case .device(let error): return error.message
        case .malformed(let why): return L10n.format("The device's answer could not be read: {}", why)
        case .timedOut: return L10n.tr("The device did not answer in time. Check that it is on and in reach, then try again.")
        case .disconnected(let why): return why
        case .unexpected(let why): return why
        case .cancelled: return L10n.tr("Stopped.")
        case .needsPairing: return L10n.tr("This device opens its Device Manager on a paired link only. Pair it, and the Device Manager opens.")
        }
    }
}

/// An error a device sent: MCUmgr's common codes (version 1's "rc"), or its group's own
/// (version 2's {"err": {"group", "rc"}}).
public struct SMPError: Equatable, Sendable {
    public let group: UInt16
    public let code: Int64
    /// Whether `code` is the group's own, not MCUmgr's common one.
    public let groupCode: Bool

    /// The device refused a part for its offset (img_mgmt's INVALID_OFFSET, fs_mgmt's
    /// FILE_OFFSET_NOT_VALID): a part before it was lost.
    public var refusesOffset: Bool {
        groupCode && (group == SMPGroup.image.rawValue && code == 20 || group == SMPGroup.fileSystem.rawValue && code == 11)
    }

    /// In words. The group's own codes come from Zephyr's img_mgmt.h, fs_mgmt.h, stat_mgmt.h,
    /// os_mgmt.h and shell_mgmt.h; the common ones from mgmt_defines.h.
    public var message: String {
        guard groupCode else { return Self.common(code) }
        switch (SMPGroup(rawValue: group), code) {
        case (.image?, 3): return L10n.tr("The device has no image there.")
        case (.image?, 4), (.image?, 5), (.image?, 6), (.image?, 7), (.image?, 8):
            return L10n.tr("The device refused the image: its TLVs are missing or wrong. Make the image again with imgtool or west sign.")
        case (.image?, 9): return L10n.tr("The device has no free slot for the image: erase the spare slot, then try again.")
        case (.image?, 13): return L10n.tr("The device could not erase its flash.")
        case (.image?, 14): return L10n.tr("The device has no such slot.")
        case (.image?, 20), (.image?, 19): return L10n.tr("The device refused the offset the upload went on from.")
        case (.image?, 22), (.image?, 23): return L10n.tr("The device refused the image: its header is not an MCUboot header.")
        case (.image?, 24): return L10n.tr("The device refused the image: its hash does not match what was sent.")
        case (.image?, 27): return L10n.tr("The device refused the image: it is not newer than the one running.")
        case (.image?, 28): return L10n.tr("The device already has an image waiting to run: restart it, or erase the spare slot.")
        case (.image?, 30): return L10n.tr("The device refused the image: it is larger than its slot.")
        case (.image?, 32): return L10n.tr("The device refused to confirm the image.")
        case (.image?, 33): return L10n.tr("The device refused to mark the running image for a test.")
        case (.fileSystem?, 2): return L10n.tr("The device refused the file's name.")
        case (.fileSystem?, 3): return L10n.tr("The device has no such file.")
        case (.fileSystem?, 4): return L10n.tr("That path is a folder on the device, not a file.")
        case (.fileSystem?, 14): return L10n.tr("The device has no file system mounted there.")
        case (.fileSystem?, 15): return L10n.tr("The device's file system is read-only.")
        case (.statistics?, 2): return L10n.tr("The device has no such statistics group.")
        case (.shell?, 2), (.os?, 2): return L10n.tr("The device could not read the command.")
        default:
            return L10n.format("The device refused the request (group {}, error {}).", String(group), String(code))
        }
    }

    static func common(_ code: Int64) -> String {
        switch code {
        case 2: return L10n.tr("The device is out of memory.")
        case 3: return L10n.tr("The device refused a value in the request.")
        case 4: return L10n.tr("The device timed out.")
        case 5: return L10n.tr("The device has no such thing.")
        case 6: return L10n.tr("The device is not in a state to do this now.")
        case 7: return L10n.tr("The request or its answer is too large for the device.")
        case 8: return L10n.tr("The device does not offer this.")
        case 9: return L10n.tr("The device found its data corrupt.")
        case 10: return L10n.tr("The device is busy. Try again.")
        case 11: return L10n.tr("The device refused: access denied.")
        case 12: return L10n.tr("The device's MCUmgr is too old for this request.")
        case 13: return L10n.tr("The device's MCUmgr is too new for this request.")
        default: return L10n.format("The device gave error {}.", String(code))
        }
    }
}
