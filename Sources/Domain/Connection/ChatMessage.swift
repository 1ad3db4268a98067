// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Which way a message went.
public enum ChatDirection: String, Equatable, Sendable, Codable {
    /// From the device to the user.
    case incoming
    /// From the user to the device.
    case outgoing
}

/// What a message carries: text, or bytes that are not valid UTF-8 (kept as they came).
public enum ChatBody: Equatable, Sendable {
    case text(String)
    case bytes([UInt8])

    /// Text when `bytes` are valid UTF-8, else the bytes themselves.
    public init(decoding bytes: [UInt8]) {
        if let text = String(validating: bytes, as: UTF8.self) {
            self = .text(text)
        } else {
            self = .bytes(bytes)
        }
    }

    /// The bytes on the air.
    public var bytes: [UInt8] {
        switch self {
        case .text(let text): return Array(text.utf8)
        case .bytes(let bytes): return bytes
        }
    }
}

/// Where an outgoing message stands. Incoming messages are always `sent`.
public enum ChatDelivery: String, Equatable, Sendable, Codable {
    /// Being written to the device.
    case sending
    /// Written (and acknowledged where the device acknowledges writes).
    case sent
    /// Could not be written; the user may retry.
    case notSent
}

/// One chat message with one device.
public struct ChatMessage: Equatable, Sendable, Identifiable {
    /// Stable identity, so a retry or a delivery update finds the message.
    public let id: UUID
    /// The device chatted with.
    public let device: DeviceID
    /// Incoming or outgoing.
    public let direction: ChatDirection
    /// Text or raw bytes.
    public let body: ChatBody
    /// When it was received or written by the user.
    public let time: Date
    /// Where it stands.
    public var delivery: ChatDelivery

    /// Creates a message.
    public init(id: UUID = UUID(), device: DeviceID, direction: ChatDirection, body: ChatBody, time: Date,
                delivery: ChatDelivery) {
        self.id = id
        self.device = device
        self.direction = direction
        self.body = body
        self.time = time
        self.delivery = delivery
    }
}

extension ChatMessage {
    /// A message the device sent, as it arrived now: text where it is UTF-8, else its bytes.
    public static func received(_ bytes: [UInt8], from device: DeviceID) -> ChatMessage {
        ChatMessage(device: device, direction: .incoming, body: ChatBody(decoding: bytes), time: Date(), delivery: .sent)
    }
}

/// How much chat history is kept per device.
public struct ChatRetention: Equatable, Sendable {
    /// Messages older than this many days are deleted; nil keeps them whatever their age.
    public var days: Int?
    /// At most this many messages are kept per device; the oldest go first.
    public var maxPerDevice: Int

    /// The defaults: no age limit, 10,000 messages per device.
    public static let standard = ChatRetention(days: nil, maxPerDevice: 10_000)

    /// Creates a retention policy.
    public init(days: Int?, maxPerDevice: Int) {
        self.days = days
        self.maxPerDevice = maxPerDevice
    }
}

extension ChatMessage {
    /// The same message, kept under `device` (an identity pairing revealed).
    public func moved(to device: DeviceID) -> ChatMessage {
        ChatMessage(id: id, device: device, direction: direction, body: body, time: time, delivery: delivery)
    }
}
