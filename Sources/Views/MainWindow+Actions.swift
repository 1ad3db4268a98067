// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

extension MainWindow {
    /// Window actions and their keyboard shortcuts.
    func installActions() {
        window.addAction("back") { [weak self] in self?.goBack() }
        window.addAction("add-devices") { [weak self] in self?.showScanner() }
        window.addAction("close") { [weak self] in self?.window.close() }
        window.addAction("preferences") { [weak self] in
            guard let self else { return }
            self.factory.preferences(self.window, nil)
        }
        window.addAction("adapter-preferences") { [weak self] in
            guard let self else { return }
            self.factory.preferences(self.window, PreferencesWindow.Area.adapter)
        }
        window.addAction("source-preferences") { [weak self] in
            guard let self else { return }
            self.factory.preferences(self.window, PreferencesWindow.Area.sources)
        }
        window.addAction("tracker-preferences") { [weak self] in
            guard let self else { return }
            self.factory.preferences(self.window, PreferencesWindow.Area.trackers)
        }
        window.addAction("show-help-overlay") { [weak self] in
            guard let self else { return }
            ShortcutsWindow.present(parent: self.window)
        }
        window.addAction("export-devices") { [weak self] in
            guard let self else { return }
            self.factory.exportDevices(self, self.exportScope)
        }
        window.addAction("undo") { [weak self] in self?.notices.undo() }
        window.addAction("peripheral") { [weak self] in self?.showPeripheral() }
        window.addAction("network-device") { [weak self] in self?.showNetworkDevice() }
        window.addAction("help") { [weak self] in self?.showHelp() }
        window.addAction("about") { [weak self] in
            guard let self else { return }
            AboutWindow.present(parent: self.window)
        }
    }

    /// Binds the window shortcuts; call once per application.
    public static func installAccelerators(on application: Application) {
        application.setAccels(for: "win.back", ["<Alt>Left", "Escape", "Back"])
        application.setAccels(for: "win.add-devices", ["<Primary>n"])
        application.setAccels(for: "win.close", ["<Primary>w"])
        application.setAccels(for: "win.preferences", ["<Primary>comma"])
        application.setAccels(for: "win.show-help-overlay", ["<Primary>question"])
        application.setAccels(for: "win.undo", ["<Primary>z"])
        application.setAccels(for: "win.help", ["F1"])
    }

    /// The user guide, in the desktop's help viewer (Yelp), in the user's language where it is
    /// translated; without Yelp, the same guide as HTML in the web browser.
    func showHelp() {
        // An installed guide, or a build tree's own; else straight to the HTML guide.
        let guide = AppResources.guideURI(languages: Languages.preferred) ?? "help:favblue"
        window.showURI(guide) { [weak self] problem in
            guard let self, let problem else { return }
            FileHandle.standardError.write(Data("favblue: \(guide) could not be opened: \(problem)\n".utf8))
            guard let page = AppResources.guideHTML(languages: Languages.preferred) else {
                return self.toast(L10n.tr("This computer has no help viewer for the guide. Install Yelp, GNOME’s help viewer, to read it."),
                                  button: nil, action: nil)
            }
            self.window.showURI(URL(fileURLWithPath: page).absoluteString) { [weak self] problem in
                guard let problem else { return }
                FileHandle.standardError.write(Data("favblue: \(page) could not be opened: \(problem)\n".utf8))
                self?.toast(L10n.format("This computer has no help viewer and no web browser for the guide. Install Yelp, GNOME’s help viewer, or open {} in a browser.",
                                        DeviceText.isolated(page)), button: nil, action: nil)
            }
        }
    }
}
