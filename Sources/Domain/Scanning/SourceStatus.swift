// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One of several sources in use, as Preferences and the Scanner say it: its name, what it is
/// doing, when it last heard anything, and how many messages it had to skip.
public struct SourceStatus: Equatable, Sendable {
    public let name: String
    public let state: ScannerState
    public let lastHeard: Date?
    /// Messages it could not read (a gateway's malformed JSON, say), skipped and counted.
    public let skipped: Int
    /// Messages it took in, read or skipped: what a benchmark compares with what was sent.
    public let messages: Int
    /// The broker a gateway publishes through; nil for a source of its own.
    public let via: String?

    /// Why it is not connected yet while it tries again ("Connection refused"); nil otherwise.
    public let retrying: String?

    public init(name: String, state: ScannerState, lastHeard: Date?, skipped: Int = 0, messages: Int = 0, via: String? = nil,
                retrying: String? = nil) {
        self.name = name
        self.retrying = retrying
        self.via = via
        self.state = state
        self.lastHeard = lastHeard
        self.skipped = skipped
        self.messages = messages
    }

    /// It cannot do its work: it cannot reach its broker or board, or it failed.
    public var isProblem: Bool {
        switch state {
        case .starting: return retrying != nil
        case .failed: return true
        default: return false
        }
    }

    /// "Kitchen · connected", "Kitchen · not heard since 12:03", "Kitchen · …failure".
    public var words: String { L10n.format("{} · {}", DeviceText.shown(name), stateWords) }

    /// What it is doing, without its name: "connected", "not heard since 12:03", "3 messages skipped".
    public var stateWords: String {
        let what: String
        switch state {
        case .scanning, .waiting:
            if let lastHeard, Date().timeIntervalSince(lastHeard) > 60 {
                what = L10n.format("not heard since {}", Formats.time(lastHeard))
            } else {
                what = L10n.ctx("source", "connected")
            }
        case .starting:
            // A sentence of its own, with what the system said, under the address it is about.
            what = retrying.map { L10n.format("Cannot connect: {}. Trying again.", $0) }
                ?? L10n.ctx("source", "connecting…")
        case .idle, .paused: what = L10n.ctx("source", "stopped")
        case .finished: what = L10n.ctx("source", "finished")
        case .failed(let failure): what = failure.message
        }
        guard skipped > 0 else { return what }
        return L10n.plural("{} · {} message skipped", "{} · {} messages skipped", skipped, what, Formats.number(skipped))
    }
}

/// A scanner that is several sources at once, and says how each is doing.
public protocol SourceStatusReporting: AnyObject, Sendable {
    var sourceStatuses: [SourceStatus] { get }
}

/// A source as the user names it on the command line: `Kitchen=h4-tcp:10.0.0.7:9000`, or the
/// source alone.
public struct NamedSource: Equatable, Sendable {
    public let name: String?
    public let source: ScanSource

    public init(name: String?, source: ScanSource) {
        self.name = name
        self.source = source
    }

    public init(parsing text: String) throws(ScanFailure) {
        if let eq = text.firstIndex(of: "="), !text[..<eq].contains(":"), !text[..<eq].contains("/") {
            let name = text[..<eq].trimmingBlanks
            guard !name.isEmpty else { throw .badSource(L10n.format("“{}” needs a name before “=”", text)) }
            self.init(name: name, source: try ScanSource(parsing: String(text[text.index(after: eq)...])))
        } else {
            self.init(name: nil, source: try ScanSource(parsing: text))
        }
    }
}
