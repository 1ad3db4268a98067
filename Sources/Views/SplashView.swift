// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The start screen: the whole window in the brand blue with the name in large white type.
@MainActor
final class SplashView {
    // MARK: Widgets
    let root = Box(vertical: true)
    private let title: Label

    // MARK: Borrowed
    private let model: SplashViewModel

    init(model: SplashViewModel) {
        self.model = model
        // Translators: the app's name on the splash screen; usually left as it is.
        title = Label(L10n.tr("FavBlue"))
        title.css("splash-title").align(.center, .center).expand()
        root.css("splash-page").expand()
        root.append(title)
        root.accessibleLabel(L10n.tr("FavBlue is starting"))

        // A click anywhere skips the wait.
        root.onClickReleased { [weak model] in model?.skip() }
    }
}
