// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// Preferences' Adapter page: what the adapter is and can do, and what FavBlue uses of each.
@MainActor
enum AdapterPage {
    static func make(_ model: PeripheralViewModel) -> PreferencesPage {
        let page = PreferencesPage(title: L10n.ctx("Preferences page", "Adapter"), icon: "computer-symbolic",
                                   name: PreferencesWindow.Area.adapter)
        let group = PreferencesGroup(title: L10n.tr("This Computer’s Adapter"))
        page.add(group)
        let fill = { [weak group, weak model] in
            guard let group, let model else { return }
            for row in group.allRows { group.remove(row) }
            guard let rows = model.adapterRows else {
                // A sentence, under the heading: as a row's value it was squeezed to a word a line.
                group.details = model.adapterProblem ?? L10n.tr("Asking the adapter what it can do…")
                return
            }
            group.details = ""
            for fact in rows {
                // Unwrapped: a wrapping value next to a long title got a letter a line.
                let value = Label(fact.value)
                value.isSelectable = true
                group.add(ActionRow(title: fact.title, subtitle: fact.use ?? "", control: value))
            }
        }
        fill()
        Task { @MainActor in
            await model.refreshAdapter()
            fill()
        }
        return page
    }
}
