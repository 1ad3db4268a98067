// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// A question asked before something replaces the server the user set up: Import… and Clone
/// This Device. Presets never ask: their services join the server.
public struct ReplaceQuestion: Equatable, Sendable {
    /// "Replace “UX Lab”?"
    public let heading: String
    /// What goes and what comes.
    public let body: String

    /// The question for losing `current` to `incoming`; nil when nothing would be lost.
    static func losing(_ current: ServerSetup?, to incoming: ServerSetup) -> ReplaceQuestion? {
        guard let current else { return nil }
        let count = current.services.count
        return ReplaceQuestion(
            heading: L10n.format("Replace “{}”?", DeviceText.isolated(current.name)),
            body: L10n.plural("The server you set up, with its {} service, goes, and “{}” takes its place. Your advertisements stay.",
                              "The server you set up, with its {} services, goes, and “{}” takes its place. Your advertisements stay.",
                              count, Formats.number(count), DeviceText.isolated(incoming.name)))
    }
}

/// Something that brings a server, held until the user agrees where it would replace the one
/// set up.
@MainActor
public struct PendingSetup {
    /// Asked first; nil when nothing set up is lost.
    public let question: ReplaceQuestion?
    /// Sets it up; returns what to say.
    public let apply: @MainActor () -> String
}
