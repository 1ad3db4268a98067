// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import GtkKit
import Localization
import ViewModels

/// Import… and Clone This Device: what brings a server asks before it replaces the one the
/// user set up, then says what it did.
@MainActor
enum PendingSetupFlow {
    /// Applies `setup` at once, or after Replace where it asks; `done` gets what to say. Cancel changes nothing.
    static func run(_ setup: PendingSetup, navigator: Navigator, done: @escaping @MainActor (String) -> Void) {
        guard let question = setup.question else { return done(setup.apply()) }
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: question.heading, body: question.body)
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("replace", label: L10n.tr("_Replace"), appearance: .destructive) { done(setup.apply()) }
        dialog.setDefault("cancel", close: "cancel")
        dialog.present()
    }
}
