// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// A tracker's page says what it is, what FavBlue saw of it and what to do, with Trust This
/// Tracker (it becomes a favorite, and favorites never alert) and Not a Threat (a day's quiet).
@MainActor
final class DeviceTrackerSection {
    let root = Box(vertical: true, spacing: 6)
    private let title = Label().xalign(0).wrap()
    private let seen = Label().xalign(0).wrap()
    private let advice = Label().xalign(0).wrap()
    private let note = Label().xalign(0).wrap()
    private let play = Button(label: L10n.tr("Play Sound"))
    private let trust = Button(label: L10n.tr("Trust This Tracker"))
    private let silence = Button(label: L10n.tr("Not a Threat"))
    private let timeline = TrackerTimelineView()
    private let buttons = FlowBox(maxPerLine: 3, columnSpacing: 6, rowSpacing: 6)
    private let model: TrackerViewModel
    private var token: ObservationToken?
    /// Whether the device is a favorite already (then it is trusted); the page says.
    var isFavorite: () -> Bool = { false }
    /// Trust This Tracker: the page asks for a nickname and adds the favorite.
    var trustWanted: (() -> Void)?
    var toast: ((String) -> Void)?

    init(model: TrackerViewModel) {
        self.model = model
        let heading = Label(L10n.ctx("section", "Tracker")).xalign(0)
        heading.css("heading")
        title.css("title-4")
        seen.css("dim-text")
        note.css("caption", "dim-text")
        trust.accessibleDescription(L10n.tr("Makes it a favorite: your own trackers never alert"))
        silence.accessibleDescription(L10n.tr("No alerts for it for a day"))
        play.accessibleDescription(L10n.tr("Connects to it and asks it to ring, so you can find it"))
        buttons.append(play)
        buttons.append(trust)
        buttons.append(silence)
        root.append(heading, title, seen, advice, buttons, note, timeline.root)
        trust.onClicked { [weak self] in self?.trustWanted?() }
        play.onClicked { [weak self] in
            guard let self, !self.model.isPlaying else { return }
            self.play.setLabel(L10n.tr("Playing…"))
            Task { @MainActor [weak self] in
                guard let self else { return }
                let said = await self.model.playSound()
                self.play.setLabel(L10n.tr("Play Sound"))
                if !said.isEmpty { self.toast?(said) }
            }
        }
        silence.onClicked { [weak self] in
            guard let self else { return }
            self.model.silence()
            self.toast?(L10n.tr("No alerts for this tracker for a day."))
            // The button goes; the focus stays in the section, on what remains.
            self.render()
            if self.trust.isVisible { self.trust.grabFocus() }
        }
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    func render() {
        root.isVisible = model.isTracker
        guard model.isTracker else { return }
        title.text = model.title
        seen.text = model.seen
        advice.text = model.advice ?? ""
        advice.isVisible = model.advice != nil
        note.text = model.silencedNote ?? ""
        note.isVisible = model.silencedNote != nil
        timeline.show(model.timeline)
        let favorite = isFavorite()
        buttons.setVisible(play, model.canPlaySound)
        buttons.setVisible(trust, !favorite)
        buttons.setVisible(silence, model.canSilence && !favorite)
        buttons.isVisible = !favorite || model.canPlaySound
        if favorite {
            note.text = L10n.tr("It is one of your favorites, so it never alerts.")
            note.isVisible = true
        }
    }
}
