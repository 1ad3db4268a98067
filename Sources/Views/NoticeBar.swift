// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit

/// A short notice at the bottom of the window, with an optional action (Undo), that
/// hides itself after a few seconds.
///
/// One bar lives as long as the window and is only shown and hidden: GTK 4.8's
/// accessibility bridge crashes when a screen reader walks the tree while a
/// transient widget (such as an AdwToast) is being destroyed.
@MainActor
final class NoticeBar {
    // MARK: Widgets
    let root = Box(vertical: false, spacing: 12)
    private let label = Label()
    private let button = Button(label: "", mnemonic: true)

    // MARK: Owned
    private var action: (() -> Void)?
    private var undoable = false
    private var generation = 0

    init() {
        root.css("favblue-notice")
        root.align(.center, .end)
        root.margins(12)
        label.wrap().xalign(0)
        label.expand(horizontal: true, vertical: false)
        button.css("flat")
        root.append(label, button)
        root.isVisible = false
        button.onClicked { [weak self] in
            let action = self?.action
            self?.hide()
            action?()
        }
    }

    /// Shows `text` for `seconds`; with `buttonLabel`, a click runs `action`, and so does
    /// Ctrl+Z when the action is `undoable`.
    func show(_ text: String, buttonLabel: String?, action: (() -> Void)?, undoable: Bool = false, seconds: Double = 5) {
        label.text = text
        self.action = action
        self.undoable = undoable && action != nil
        button.isVisible = buttonLabel != nil
        if let buttonLabel { button.setLabel(buttonLabel) }
        root.isVisible = true
        generation += 1
        let shown = generation
        Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            if self?.generation == shown { self?.hide() }
        }
    }

    /// Ctrl+Z: runs the Undo of the notice on screen; false when none shows.
    @discardableResult
    func undo() -> Bool {
        guard root.isVisible, undoable, let action else { return false }
        hide()
        action()
        return true
    }

    private func hide() {
        root.isVisible = false
        action = nil
        undoable = false
    }
}
