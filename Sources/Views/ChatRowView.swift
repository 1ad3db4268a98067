// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization

/// One row of a chat: a day separator, or a message bubble with its time and, for a message
/// that could not be written, "Not sent" and Retry. Rows are reused for any key, so every
/// bind sets everything.
@MainActor
final class ChatRowView {
    let root = Box(vertical: true, spacing: 2)
    private let day = Label()
    private let bubble = Box(vertical: true, spacing: 2)
    private let text = Label().xalign(0).wrap()
    private let meta = Box(vertical: false, spacing: 6)
    private let time = Label()
    private let problem = Label().xalign(0).wrap()
    private let retry = Button(label: L10n.tr("Retry"))
    /// The message shown, for Retry.
    private(set) var messageID: UUID?

    init(onRetry: @escaping (UUID) -> Void) {
        day.css("caption-heading", "dim-text")
        day.align(.center, .center)
        text.css("favblue-bubble-text")
        time.css("caption", "numeric")
        problem.css("caption", "error")
        retry.css("flat", "small")
        meta.append(time, problem, retry)
        bubble.append(text, meta)
        bubble.css("favblue-bubble")
        root.append(day, bubble)
        root.margins(4)
        // The row takes the focus, named as a screen reader says it; its Retry is for the pointer,
        // and Enter on the row does the same.
        root.isFocusable = true
        retry.canFocus = false
        retry.onClicked { [weak self] in
            if let id = self?.messageID { onRetry(id) }
        }
    }

    /// Shows a day separator.
    func showDay(_ title: String) {
        messageID = nil
        day.text = title
        day.isVisible = true
        bubble.isVisible = false
        root.accessibleLabel(title)
    }

    /// Shows `message`; `sender` names the device for screen readers, `failure` says why it was not sent.
    func show(_ message: ChatMessage, sender: String, failure: String?) {
        messageID = message.id
        day.isVisible = false
        bubble.isVisible = true
        let body: String
        switch message.body {
        case .text(let value): body = value
        case .bytes(let bytes):
            body = L10n.format("Not text: {}", Hex.spaced(bytes))
        }
        text.text = body
        time.text = Formats.time(message.time)
        let outgoing = message.direction == .outgoing
        bubble.align(outgoing ? .end : .start, .center)
        if outgoing {
            bubble.removeCSS("favblue-bubble-in")
            bubble.css("favblue-bubble-out")
        } else {
            bubble.removeCSS("favblue-bubble-out")
            bubble.css("favblue-bubble-in")
        }
        let notSent = message.delivery == .notSent
        problem.isVisible = notSent || message.delivery == .sending
        switch message.delivery {
        case .notSent:
            problem.text = failure.map { L10n.format("Not sent: {}", $0) } ?? L10n.tr("Not sent")
            problem.css("error")
        case .sending:
            problem.text = L10n.tr("Sending…")
            problem.removeCSS("error")
        case .sent:
            problem.text = ""
        }
        retry.isVisible = notSent
        retry.accessibleLabel(L10n.format("Retry sending “{}”", String(body.prefix(40))))
        let who = outgoing ? L10n.tr("You") : sender
        // Translators: how a screen reader announces a chat message: sender, time, text.
        var spoken = L10n.format("{}, {}: {}", who, time.text, body)
        if notSent { spoken += " " + L10n.tr("Not sent") }
        root.accessibleLabel(spoken)
    }
}
