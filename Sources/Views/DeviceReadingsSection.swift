// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// A sensor's readings on its page: the maker and model, then each quantity as a small
/// caption over a large figure with its unit, and how old they are. Tiles are kept per reading
/// and only their text changes, so the focus and the reader's place stay put. An encrypted
/// sensor offers Key…, whose key goes to the keyring.
@MainActor
final class DeviceReadingsSection {
    // MARK: Widgets
    let root = Box(vertical: true, spacing: 6)
    private let model = Label()
    private let tiles = FlowBox(maxPerLine: 6, columnSpacing: 18, rowSpacing: 6)
    private let note = Label()
    private let keyButton = Button(label: L10n.tr("_Key…"), mnemonic: true)
    private let removeKey = Button(label: L10n.tr("_Remove Key"), mnemonic: true)
    private let keyLine = Box(vertical: false, spacing: 6)
    private let limitsButton = Button(label: L10n.tr("_Notify When Above or Below…"), mnemonic: true)
    private let limitsNote = Label()
    /// A switch per state (a door, motion): notify when it turns on.
    private let states = Box(vertical: true, spacing: 6)
    private var stateSwitches: [String: (line: Box, title: Label, toggle: Switch)] = [:]
    private var stateOrder: [String] = []
    private let message = Label()
    /// Notify When Above or Below… and a switch per state: they sit in the page's Notifications
    /// group, beside Notify When Nearby, which the page puts them in.
    let notifications = Box(vertical: true, spacing: 6)
    private let historyLine = Box(vertical: false, spacing: 6)
    private let period = DropDown(DeviceDetailViewModel.ReadingsPeriod.allCases.map(\.title),
                                  accessibleName: L10n.tr("Period of the readings’ plots"))
    private let plots = Box(vertical: true, spacing: 6)
    /// When its states changed over the period (a door opening, closing), newest first.
    private let timeline = Box(vertical: true, spacing: 2)
    private let timelineHeading = Label(L10n.tr("Timeline")).xalign(0)
    private var timelineLines: [Label] = []
    private var plotViews: [String: (caption: Label, plot: ValuePlot)] = [:]
    private var plotOrder: [String] = []

    // MARK: Borrowed
    private let page: DeviceDetailViewModel?
    private weak var navigator: Navigator?

    // MARK: Owned
    private var shown: [String: (box: Box, caption: Label, value: Label)] = [:]
    private var order: [String] = []

    init(page: DeviceDetailViewModel? = nil, navigator: Navigator? = nil) {
        self.page = page
        self.navigator = navigator
        let heading = Label(L10n.tr("Readings")).xalign(0)
        heading.css("heading")
        model.xalign(0).wrap()
        model.css("dim-text")
        note.xalign(0).wrap()
        tiles.canFocus = false
        tiles.accessibleLabel(L10n.tr("Readings"))
        message.xalign(0).wrap()
        message.css("dim-text")
        message.isVisible = false
        removeKey.css("flat")
        keyLine.append(keyButton, removeKey)
        let history = Label(L10n.tr("History")).xalign(0)
        history.css("caption-heading")
        history.expand(horizontal: true, vertical: false)
        historyLine.append(history, period)
        limitsNote.xalign(0).wrap()
        limitsNote.css("dim-text")
        limitsButton.align(.start, .center)
        timelineHeading.css("caption", "dim-text")
        timeline.append(timelineHeading)
        timeline.accessibleLabel(L10n.tr("Timeline"))
        // Key… right under the sentence that asks for the key.
        root.append(heading, model, tiles, note, keyLine, historyLine, plots, timeline, message)
        notifications.append(limitsNote, limitsButton, states)
        limitsButton.onClicked { [weak self] in self?.askLimits() }
        root.isVisible = false
        keyButton.onClicked { [weak self] in self?.askKey(typed: "", problem: nil) }
        removeKey.onClicked { [weak self] in self?.forgetKey() }
        period.onSelected { [weak self] index in
            guard let self, let page = self.page, let chosen = DeviceDetailViewModel.ReadingsPeriod(rawValue: index),
                  chosen != page.readingsPeriod else { return }
            page.showReadings(over: chosen)
        }
    }

    /// Shows `readings` (hides the section for none). When it was last heard is said once, under
    /// the signal, not again here.
    func show(_ readings: DeviceDetailViewModel.Readings?) {
        root.isVisible = readings != nil
        keyLine.isVisible = page?.canGiveSensorKey ?? false
        removeKey.isVisible = page?.hasSensorKey ?? false
        if let page {
            keyButton.accessibleLabel(L10n.format("Key for {}", page.title))
            removeKey.accessibleLabel(L10n.format("Remove the key of {}", page.title))
        }
        showPlots()
        let choices = page?.limitChoices ?? []
        limitsButton.isVisible = !choices.isEmpty
        let limits = page?.limitsText
        limitsNote.text = limits ?? ""
        limitsNote.isVisible = limits != nil
        if let page { limitsButton.accessibleLabel(L10n.format("Notify when a reading of {} is above or below a limit", page.title)) }
        showStates(page?.stateChoices ?? [])
        guard let readings else { return }
        model.text = readings.model ?? ""
        model.isVisible = readings.model != nil
        note.text = readings.note ?? ""
        note.isVisible = readings.note != nil
        let keys = readings.items.map(\.key)
        if keys != order {
            tiles.removeAll()
            shown = [:]
            for item in readings.items {
                let caption = Label(item.caption)
                caption.css("caption", "dim-text")
                let value = Label(item.value)
                value.css("reading-value", "numeric")
                let box = Box(vertical: true, spacing: 2).append(caption, value)
                box.margins(6)
                tiles.append(box)
                shown[item.key] = (box, caption, value)
            }
            order = keys
        }
        for item in readings.items {
            guard let tile = shown[item.key] else { continue }
            if tile.caption.text != item.caption { tile.caption.text = item.caption }
            if tile.value.text != item.value { tile.value.text = item.value }
            tile.box.accessibleLabel(L10n.format("{}: {}", item.caption, item.value))
        }
    }

    // MARK: History

    /// A line per reading over the period chosen, with its scale; the period's choice where there
    /// is more than the hour (a favorite's readings are kept).
    private func showPlots() {
        guard let page else {
            historyLine.isVisible = false
            plots.isVisible = false
            return
        }
        let lines = page.readingPlots()
        let changes = page.stateTimeline()
        let periods = page.readingsPeriods
        period.isVisible = periods.count > 1
        if period.selected != page.readingsPeriod.rawValue { period.selected = page.readingsPeriod.rawValue }
        historyLine.isVisible = !lines.isEmpty || !changes.isEmpty || periods.count > 1
        plots.isVisible = !lines.isEmpty
        let keys = lines.map(\.key)
        if keys != plotOrder {
            for view in plotViews.values {
                plots.remove(view.caption)
                plots.remove(view.plot.root)
            }
            plotViews = [:]
            for line in lines {
                let caption = Label(line.name).xalign(0)
                caption.css("caption", "dim-text")
                let plot = ValuePlot()
                plots.append(caption)
                plots.append(plot.root)
                plotViews[line.key] = (caption, plot)
            }
            plotOrder = keys
        }
        showTimeline(changes)
        for line in lines {
            guard let view = plotViews[line.key] else { continue }
            if view.caption.text != line.name { view.caption.text = line.name }
            view.plot.show(line.figures, scale: line.scale, name: line.name, summary: line.summary,
                           time: (line.positions, line.time.labels))
        }
    }

    /// A line per change, its labels kept and only their text changed, so a reader's place stays.
    private func showTimeline(_ changes: [String]) {
        timeline.isVisible = !changes.isEmpty
        while timelineLines.count < changes.count {
            let line = Label().xalign(0).wrap()
            line.css("numeric")
            timeline.append(line)
            timelineLines.append(line)
        }
        for (index, line) in timelineLines.enumerated() {
            let text = index < changes.count ? changes[index] : ""
            if line.text != text { line.text = text }
            line.isVisible = index < changes.count
        }
    }

    // MARK: Notify When Above or Below…

    /// What was typed in the limits dialog, so a refusal brings it back as it was.
    private struct TypedLimits {
        let reading: Int
        let above: String
        let below: String
    }

    /// Asks for the limits of one reading: above and below, in the unit shown, empty for none.
    /// A field that does not read is marked as it is typed, and Save waits for it.
    private func askLimits(typed: TypedLimits? = nil, problem: String? = nil) {
        guard let page, let parent = navigator?.parentWindow else { return }
        let choices = page.limitChoices
        guard !choices.isEmpty else { return }
        let dialog = MessageDialog(parent: parent, heading: L10n.tr("Notify When Above or Below"),
                                   body: L10n.format("A notification comes once when a reading of {} passes a limit, and again only after it came back. Leave a field empty for no limit.",
                                                     DeviceText.isolated(page.title)))
        let reading = DropDown(choices.map(\.name), accessibleName: L10n.tr("Reading"))
        let above = Entry(accessibleName: L10n.tr("Above"))
        let below = Entry(accessibleName: L10n.tr("Below"))
        let aboveUnit = Label(), belowUnit = Label()
        let reason = Label(problem ?? "").xalign(0).wrap()
        reason.css("caption", "error")
        reason.isVisible = problem != nil
        func chosen() -> Int { max(0, min(reading.selected, choices.count - 1)) }
        func check() {
            let key = choices[chosen()].key
            var said: String?
            for entry in [above, below] {
                let wrong = page.limitProblem(key, entry.text)
                if wrong != nil { entry.css("error") } else { entry.removeCSS("error") }
                said = said ?? wrong
            }
            if said == nil, page.limitsCross(key, above: above.text, below: below.text) {
                said = L10n.tr("The lower limit must be below the upper one.")
                below.css("error")
            }
            reason.text = said ?? ""
            reason.isVisible = said != nil
            dialog.setEnabled("save", said == nil)
        }
        func fill(_ index: Int) {
            let choice = choices[max(0, min(index, choices.count - 1))]
            let texts = page.limitTexts(choice.key)
            above.text = texts.above
            below.text = texts.below
            aboveUnit.text = choice.unit
            belowUnit.text = choice.unit
        }
        if let typed {
            reading.selected = typed.reading
            let choice = choices[max(0, min(typed.reading, choices.count - 1))]
            above.text = typed.above
            below.text = typed.below
            aboveUnit.text = choice.unit
            belowUnit.text = choice.unit
        } else {
            fill(0)
        }
        reading.onSelected { fill($0); check() }
        reading.isVisible = choices.count > 1
        let grid = Grid(columnSpacing: 6, rowSpacing: 6)
        for (row, (title, entry, unit)) in [(L10n.tr("Above"), above, aboveUnit), (L10n.tr("Below"), below, belowUnit)].enumerated() {
            let label = Label(title).xalign(0)
            entry.expand(horizontal: true, vertical: false)
            entry.activatesDefault()
            grid.attach(label, column: 0, row: Int32(row))
            grid.attach(entry, column: 1, row: Int32(row))
            grid.attach(unit, column: 2, row: Int32(row))
        }
        dialog.setExtraChild(Box(vertical: true, spacing: 6).append(reading, grid, reason))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("save", label: L10n.tr("_Save"), appearance: .suggested) { [weak self] in
            let index = chosen()
            let key = choices[index].key
            let (high, low) = (above.text, below.text)
            Task { [weak self] in
                guard let self, let page = self.page else { return }
                if let refused = await page.setLimits(key, above: high, below: low) {
                    self.askLimits(typed: TypedLimits(reading: index, above: high, below: low), problem: refused)
                }
            }
        }
        dialog.setDefault("save", close: "cancel")
        above.onChanged { _ in check() }
        below.onChanged { _ in check() }
        if typed != nil { check() }
        if let problem, reason.text.isEmpty {
            reason.text = problem
            reason.isVisible = true
        }
        dialog.onClosed { [weak self] in self?.limitsButton.grabFocus() }
        dialog.present()
        above.grabFocus()
    }

    // MARK: Key…

    /// Asks for the key, typed hidden as a password is; a refused one comes back with why.
    private func askKey(typed: String, problem: String?) {
        guard let page, let parent = navigator?.parentWindow else { return }
        let dialog = MessageDialog(parent: parent, heading: L10n.format("Key for {}", DeviceText.isolated(page.title)),
                                   body: L10n.tr("The key that opens its readings: 32 hex digits, from its maker’s app or its firmware. It is kept in your keyring, not in FavBlue’s settings."))
        let entry = Entry(accessibleName: L10n.tr("Key"))
        entry.hidesText()
        entry.activatesDefault()
        entry.placeholder(L10n.tr("32 hex digits"))
        entry.text = typed
        let reason = Label(problem ?? "").xalign(0).wrap()
        reason.css("caption", "error")
        reason.isVisible = problem != nil
        // Said of the key that was refused: it goes once another is being typed.
        entry.onChanged { _ in reason.isVisible = false }
        dialog.setExtraChild(Box(vertical: true, spacing: 6).append(entry, reason))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("use", label: L10n.tr("_Use Key"), appearance: .suggested) { [weak self] in
            let text = entry.text
            Task { [weak self] in
                guard let self, let page = self.page else { return }
                if let refused = await page.useSensorKey(text) {
                    self.askKey(typed: text, problem: refused)
                } else {
                    self.say(L10n.tr("Key kept in your keyring."))
                }
            }
        }
        dialog.setDefault("use", close: "cancel")
        entry.onChanged { [weak dialog] text in dialog?.setEnabled("use", !text.isEmpty) }
        dialog.setEnabled("use", !typed.isEmpty)
        dialog.onClosed { [weak self] in
            // Back where it came from, unless the dialog comes back with why.
            if self?.keyButton.isVisible == true { self?.keyButton.grabFocus() }
        }
        dialog.present()
        entry.grabFocus()
    }

    private func forgetKey() {
        Task { [weak self] in
            guard let self, let page = self.page else { return }
            self.say(await page.removeSensorKey() ?? L10n.tr("Key removed."))
            self.keyButton.grabFocus()
        }
    }

    /// A line per state, its title beside a switch; built again only when the states change,
    /// so a switch keeps the focus while readings come in.
    private func showStates(_ choices: [DeviceDetailViewModel.StateChoice]) {
        states.isVisible = !choices.isEmpty
        let keys = choices.map(\.key)
        if keys != stateOrder {
            for (_, line) in stateSwitches { states.remove(line.line) }
            stateSwitches = [:]
            for choice in choices {
                let title = Label(choice.title).xalign(0).wrap()
                title.expand(horizontal: true, vertical: false)
                // The switch says its title; the label is not said a second time.
                title.accessibleHidden()
                let toggle = Switch(accessibleName: choice.title)
                let line = Box(vertical: false, spacing: 12).append(title, toggle)
                toggle.onToggled { [weak self] on in self?.setNotifies(choice.key, on) }
                states.append(line)
                stateSwitches[choice.key] = (line, title, toggle)
            }
            stateOrder = keys
        }
        for choice in choices {
            guard let line = stateSwitches[choice.key] else { continue }
            if line.title.text != choice.title { line.title.text = choice.title }
            if line.toggle.isOn != choice.isOn { line.toggle.isOn = choice.isOn }
        }
    }

    private func setNotifies(_ key: String, _ on: Bool) {
        guard let page, page.stateChoices.first(where: { $0.key == key })?.isOn != on else { return }
        Task { [weak self] in
            if let problem = await page.setNotifies(key, on) { self?.say(problem) }
        }
    }

    private func say(_ text: String) {
        message.text = text
        message.isVisible = true
    }
}
