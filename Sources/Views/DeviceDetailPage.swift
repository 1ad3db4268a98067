// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// Everything one device says about itself.
@MainActor
public final class DeviceDetailPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let content = Stack(transition: .crossfade, durationMs: 150)
    private let signalValue = Label()
    private let keywordBox = FlowBox(maxPerLine: 20, columnSpacing: 6, rowSpacing: 6)
    private let seen = Label()
    private let plot = SignalPlot()
    private let heart: Button
    private let rename: Button

    // MARK: Borrowed
    private weak var navigator: Navigator?
    private let model: DeviceDetailViewModel
    private let favorites: FavoritesViewModel

    // MARK: Owned
    private var token: ObservationToken?
    private var shownKeywords: [String] = []

    /// Creates the page over `model`.
    public init(navigator: Navigator, model: DeviceDetailViewModel, favorites: FavoritesViewModel) {
        self.navigator = navigator
        self.model = model
        self.favorites = favorites
        frame = PageFrame(title: model.title, backButton: true)
        heart = Button(icon: "favblue-heart-outline-symbolic", accessibleName: "")
        rename = Button(icon: "document-edit-symbolic", accessibleName: L10n.tr("Rename"))
        frame.header.packEnd(heart)
        frame.header.packEnd(rename)

        let loading = Spinner()
        loading.isSpinning = true
        loading.accessibleLabel(L10n.tr("Loading details")).align(.center, .center).sizeRequest(width: 32, height: 32)

        // Signal: a small caption over a large figure, near the centre.
        let caption = Label(L10n.tr("Signal"))
        caption.css("signal-caption", "dim-text")
        signalValue.css("signal-value", "numeric")
        let signal = Box(vertical: true, spacing: 4).append(caption, signalValue)
        signal.align(.center, .start)
        signal.margins(24)

        let heading = Label(L10n.tr("Keywords")).xalign(0)
        heading.css("heading")
        keywordBox.accessibleLabel(L10n.tr("Keywords"))
        seen.xalign(0).wrap()
        seen.css("dim-text")

        let column = Box(vertical: true, spacing: 12).append(signal, heading, keywordBox, plot.root, seen)
        column.margins(18)
        let scroller = ScrolledWindow(child: Clamp(maximumSize: 600, child: column))
        content.add(loading, name: "loading")
        content.add(scroller, name: "details")
        frame.setContent(content)

        heart.onClicked { [weak self] in self?.toggleFavorite() }
        rename.onClicked { [weak self] in self?.renameFavorite() }
        token = model.observe { [weak self] in self?.render() }
        render()
        Task { [weak model] in await model?.load() }
    }

    public var root: Widget { frame.root }

    /// "loading" while the stored data is on its way, then "details" (for tests).
    public var visibleContent: String? { content.visibleName }

    /// The first/last seen line, for tests.
    public var seenText: String { seen.text }

    /// The plot's summary (also its accessible description), for tests.
    public var signalSummary: String { plot.summaryText }

    private func render() {
        content.show(model.isLoading ? "loading" : "details")
        frame.header.titleLabel.title = model.title
        signalValue.text = model.rssi.map { ScannerPage.dBm($0) } ?? L10n.tr("Not heard")
        plot.show(model.signalHistory())
        if model.keywords != shownKeywords {
            shownKeywords = model.keywords
            keywordBox.removeAll()
            for keyword in model.keywords {
                keywordBox.append(Label(keyword).css("favblue-tag"))
            }
        }
        if let summary = model.summary {
            let format = DateFormatter()
            format.dateStyle = .medium
            format.timeStyle = .short
            seen.text = L10n.format("First seen {}, last seen {}", format.string(from: summary.firstSeen), format.string(from: summary.lastSeen))
                + "\n" + L10n.plural("{} stored sighting", "{} stored sightings", summary.count)
        } else {
            seen.text = L10n.tr("No sightings stored yet; they are kept for favorites.")
        }
        let favorite = model.isFavorite
        heart.setIcon(favorite ? "favblue-heart-filled-symbolic" : "favblue-heart-outline-symbolic")
        if favorite { heart.css("favorite-heart") } else { heart.removeCSS("favorite-heart") }
        let heartName = favorite ? L10n.format("Remove {} from favorites", model.title) : L10n.format("Add {} to favorites", model.title)
        heart.accessibleLabel(heartName).tooltip(heartName)
        rename.isSensitive = favorite
    }

    private func toggleFavorite() {
        guard let navigator else { return }
        let id = model.id
        if model.isFavorite {
            FavoriteDialogs.remove(id, name: model.title, parent: navigator.parentWindow, favorites: favorites)
        } else {
            let name = model.title == id.address ? nil : model.title
            FavoriteDialogs.add(id, title: model.title, advertisedName: name, parent: navigator.parentWindow, favorites: favorites)
        }
    }

    private func renameFavorite() {
        guard let navigator, model.isFavorite else { return }
        FavoriteDialogs.rename(model.id, name: model.title, parent: navigator.parentWindow, favorites: favorites)
    }
}
