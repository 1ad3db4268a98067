// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// A strip under the header bar for things the user must know (data moved aside,
/// changes not saved, scanning stopped), with one button (Dismiss, Try Again), or two for
/// an offer (Turn On…, Not Now).
/// Hidden while there is nothing to say.
@MainActor
final class Banner {
    // MARK: Widgets
    let root = Box(vertical: false, spacing: 12)
    private let label = Label()
    private let button: Button
    private let buttons = Box(vertical: false, spacing: 6)

    init(buttonLabel: String = L10n.tr("_Dismiss"), secondLabel: String? = nil, onSecond: (() -> Void)? = nil,
         onDismiss: @escaping () -> Void) {
        root.css("favblue-banner")
        label.xalign(0).wrap().expand(horizontal: true, vertical: false)
        button = Button(label: buttonLabel, mnemonic: true)
        button.css("flat").align(.end, .center)
        button.onClicked(onDismiss)
        root.append(label, buttons)
        buttons.align(.end, .center)
        if let secondLabel, let onSecond {
            let second = Button(label: secondLabel, mnemonic: true)
            second.css("flat").align(.end, .center)
            second.onClicked(onSecond)
            buttons.append(second)
        }
        buttons.append(button)
        root.isVisible = false
        root.accessibleLabel(L10n.tr("Notice"))
    }

    /// In a narrow window the buttons go under the words, which else wrap a word to a line.
    func adapt(narrow: Bool) { root.isVertical = narrow }

    /// Shows the messages, one per line, or hides the banner when there are none; `button`
    /// renames the button (with a mnemonic) for what it does now.
    func show(_ messages: [String], button text: String? = nil) {
        label.text = messages.joined(separator: "\n")
        root.isVisible = !messages.isEmpty
        if let text { button.setLabel(text) }
    }
}
