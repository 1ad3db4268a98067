// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit

/// A short notice at the bottom of the window, with an optional action (Undo), that
/// hides itself after a few seconds, but never while the pointer or the keyboard focus
/// is on it: a user reaching for Undo is not left with nothing to press.
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
    private var seconds: Double = 5
    private var pointerInside = false
    private var focusInside = false
    private var expired = false

    init() {
        root.css("favblue-notice")
        root.align(.center, .end)
        root.margins(12)
        label.wrap().xalign(0)
        label.expand(horizontal: true, vertical: false)
        button.css("flat")
        root.append(label, button)
        root.isVisible = false
        root.onPointerInside { [weak self] inside in self?.pointerInside = inside; self?.heldChanged() }
        root.onFocusInside { [weak self] inside in self?.focusInside = inside; self?.heldChanged() }
        button.onClicked { [weak self] in
            let action = self?.action
            self?.hide()
            action?()
        }
    }

    /// Shows `text` for `seconds`, `footer` pixels above the page's foot (the chat's entry);
    /// with `buttonLabel`, a click runs `action`, and so does Ctrl+Z when the action is `undoable`.
    func show(_ text: String, buttonLabel: String?, action: (() -> Void)?, undoable: Bool = false, seconds: Double = 5,
              above footer: Int32 = 0) {
        root.marginBottom = 12 + (footer > 0 ? footer + 18 : 0)
        label.text = text
        self.action = action
        self.undoable = undoable && action != nil
        button.isVisible = buttonLabel != nil
        if let buttonLabel { button.setLabel(buttonLabel) }
        root.isVisible = true
        self.seconds = seconds
        arm()
    }

    /// Starts the notice's time afresh; when it runs out while the notice is held, it
    /// waits for the pointer and the focus to leave.
    private func arm() {
        expired = false
        generation += 1
        let shown = generation
        Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: UInt64((self?.seconds ?? 5) * 1_000_000_000))
            guard let self, self.generation == shown else { return }
            self.expired = true
            if !self.isHeld { self.hide() }
        }
    }

    private var isHeld: Bool { pointerInside || focusInside }

    /// Let go of after its time ran out: a few seconds more to read it, as when it appeared.
    private func heldChanged() {
        guard root.isVisible, !isHeld, expired else { return }
        arm()
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
        generation += 1
        expired = false
        pointerInside = false
        focusInside = false
        root.isVisible = false
        action = nil
        undoable = false
    }
}
