// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// One characteristic inside its service's row.
@MainActor
final class CharacteristicView {
    let row: ContentRow
    private let box = Box(vertical: true, spacing: 4)
    private let title = Label().xalign(0).wrap()
    private let details = Label().xalign(0).wrap()
    private let descriptors = Label().xalign(0).wrap()
    private let decoded = Label().xalign(0).wrap()
    private let parts = Label().xalign(0).wrap()
    private let text = Label().xalign(0).wrap()
    private let hex = Label().xalign(0).wrap()
    private let meta = Label().xalign(0).wrap()
    private let problem = Label().xalign(0).wrap()
    private let pairButton = Button(label: L10n.tr("Pair"))
    private let read = Button(label: L10n.tr("Read"))
    private let copyText = Button(label: L10n.tr("Copy Text"))
    private let copyHex = Button(label: L10n.tr("Copy Hex"))
    private let nameButton = Button(label: L10n.tr("Name…"))
    private var uuid = ""
    private let entry: Entry
    private let format: DropDown
    private let write = Button(label: L10n.tr("Write"))
    private let writeCommand = Button(label: L10n.tr("Write Without Response"))
    private let writeNote = Label().xalign(0).wrap()
    private let writeHint = Label().xalign(0).wrap()
    private let writeRow = Box(vertical: true, spacing: 6)
    /// Buttons wrap onto more lines in a narrow window, so the page never grows wider than it.
    private let buttons = FlowBox(maxPerLine: 6, columnSpacing: 6, rowSpacing: 6)
    private let writeControls = FlowBox(maxPerLine: 3, columnSpacing: 6, rowSpacing: 6)
    private let notifyLabel = Label(L10n.tr("Notifications")).xalign(0)
    private let notify: Switch
    private let rate = Label().xalign(1)
    private let notifyRow = Box(vertical: false, spacing: 6)
    private let subscribeProblem = Label().xalign(0).wrap()
    private let followedNote = Label().xalign(0).wrap()
    /// One notification a line, each cut short rather than wrapped: a wrapping label is laid out
    /// again for every width GTK asks about, ten times a second while values stream in.
    private let logLines = Label().xalign(0).ellipsize()
    private let plot = ValuePlot()
    private let logCount = Label().xalign(0)
    private let pause = Button(label: L10n.tr("Pause"))
    private let clear = Button(label: L10n.tr("Clear"))
    private let copyLog = Button(label: L10n.tr("Copy Log"))
    private let exportLog = Button(label: L10n.tr("Export Log…"))
    private let logButtons = FlowBox(maxPerLine: 4, columnSpacing: 6, rowSpacing: 6)
    /// The switch follows the model; a change it makes is not the user's.
    private var settingSwitch = false
    private(set) var isLogging = false
    private var paused = false
    private let handle: UInt16
    private let model: DeviceServicesViewModel
    private weak var section: DeviceServicesSection?
    /// What the entry says about the typed value (nothing was sent), until the next edit.
    private var entryProblem: String?
    /// The format the page chose (from 0x2904), until the user chooses another.
    private var suggestedFormat: Int
    private var formatChosen = false
    private var rendered: DeviceServicesViewModel.Characteristic?
    private var renderedCanPair = false

    /// Scrolls the log's plot and its newest lines into view.
    func showLog() { plot.root.scrollIntoView(margin: 24, for: 2) }

    init(_ c: DeviceServicesViewModel.Characteristic, model: DeviceServicesViewModel, section: DeviceServicesSection) {
        handle = c.handle
        self.model = model
        self.section = section
        entry = Entry(accessibleName: L10n.format("Value to write to {}", c.title))
        format = DropDown(DeviceServicesViewModel.writeFormatNames, accessibleName: L10n.format("Format of the value for {}", c.title))
        notify = Switch(accessibleName: L10n.format("Notifications from {}", c.title))
        format.selected = c.suggestedFormat
        suggestedFormat = c.suggestedFormat
        row = ContentRow(box, accessibleName: c.title)
        title.css("heading")
        for label in [details, descriptors, meta] { label.css("caption", "dim-text") }
        decoded.css("title-4")
        hex.css("monospace")
        for label in [decoded, parts, text, hex] { label.isSelectable = true }
        problem.css("error")
        writeNote.css("caption")
        writeHint.css("caption", "dim-text")
        entry.expand(horizontal: true, vertical: false)
        entry.placeholder(L10n.tr("Value to write"))
        for button in [read, copyText, copyHex, nameButton, pairButton] { buttons.append(button) }
        // A button like its neighbours: flat, its padding read as an indent where it stood alone.
        nameButton.align(.start, .center)
        nameButton.onClicked { [weak self] in self?.askName() }
        for control in [format, write, writeCommand] as [Widget] { writeControls.append(control) }
        writeRow.append(entry, writeHint, writeControls)
        notifyLabel.expand(horizontal: true, vertical: false)
        rate.css("caption", "dim-text", "numeric")
        notifyRow.append(notifyLabel, rate, notify)
        subscribeProblem.css("error")
        followedNote.css("caption", "dim-text")
        logLines.css("monospace", "caption")
        logLines.isSelectable = true
        logCount.css("caption", "dim-text")
        for button in [pause, clear, copyLog, exportLog] { button.css("flat") }
        for button in [pause, clear, copyLog, exportLog] { logButtons.append(button) }
        box.append(title, details, descriptors, decoded, parts, text, hex, meta, problem, buttons, writeRow, writeNote,
                   notifyRow, subscribeProblem, followedNote, logCount, plot.root, logLines, logButtons)
        notify.onToggled { [weak self] on in
            guard let self, !self.settingSwitch else { return }
            self.model.setSubscribed(self.handle, on)
        }
        pause.onClicked { [weak self] in
            guard let self else { return }
            self.model.setPaused(self.handle, !self.paused)
        }
        clear.onClicked { [weak self] in
            guard let self else { return }
            self.model.clearLog(self.handle)
        }
        copyLog.onClicked { [weak self] in
            guard let self else { return }
            self.copyLog.copyToClipboard(self.model.logText(self.handle))
        }
        exportLog.onClicked { [weak self] in
            guard let self, let navigator = self.section?.navigator else { return }
            ExportDialogs.exportNotificationLog(navigator: navigator, model: self.model, handle: self.handle)
        }
        box.margins(12)
        read.onClicked { [weak self] in
            guard let self else { return }
            self.model.read(self.handle)
        }
        copyText.onClicked { [weak self] in
            guard let self, let value = self.model.copyText(self.handle) else { return }
            self.copyText.copyToClipboard(value)
        }
        copyHex.onClicked { [weak self] in
            guard let self, let value = self.model.copyHex(self.handle) else { return }
            self.copyHex.copyToClipboard(value)
        }
        pairButton.css("suggested-action")
        pairButton.onClicked { [weak self] in self?.section?.pairWanted() }
        write.onClicked { [weak self] in self?.send(withResponse: true) }
        writeCommand.onClicked { [weak self] in self?.send(withResponse: false) }
        entry.onActivate { [weak self] in
            guard let self else { return }
            self.send(withResponse: !self.writeCommand.isVisible || self.write.isVisible)
        }
        format.onSelected { [weak self] index in
            guard let self, index != self.suggestedFormat else { return }
            self.formatChosen = true
        }
        entry.onChanged { [weak self] _ in
            guard let self, self.entryProblem != nil else { return }
            self.entryProblem = nil
            self.writeNote.text = ""
            self.writeNote.isVisible = false
            // The model's own note shows again at the next render.
            self.rendered = nil
        }
        render(c)
    }

    /// Asks for a name and a value format for this characteristic, kept for this device.
    private func askName() {
        guard let navigator = section?.navigator else { return }
        let current = model.label(of: handle)
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: L10n.tr("Name This Characteristic"),
                                   body: L10n.format("Give {} a name, and say how its value reads. FavBlue keeps both for this device; an empty name forgets them.",
                                                     DeviceText.isolated(uuid)))
        let entry = Entry(accessibleName: L10n.tr("Name"))
        entry.placeholder(L10n.tr("Name"))
        entry.text = current.name
        entry.activatesDefault()
        let format = DropDown(DeviceServicesViewModel.labelFormatNames, accessibleName: L10n.tr("Value format"))
        format.selected = current.formatIndex
        dialog.setExtraChild(Box(vertical: true, spacing: 6).append(entry, format))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        // The dialog keeps the entry and the drop-down for as long as it is open.
        dialog.addResponse("save", label: L10n.tr("_Save"), appearance: .suggested) { [weak self] in
            guard let self else { return }
            self.model.setLabel(of: self.handle, name: entry.text, formatIndex: format.selected)
        }
        dialog.setDefault("save", close: "cancel")
        // Focus goes back to the button once the dialog closes.
        dialog.onClosed { [weak self] in self?.nameButton.grabFocus() }
        dialog.present()
        entry.grabFocus()
    }

    private func send(withResponse: Bool) {
        let typed = entry.text
        let index = format.selected
        Task { [weak self, model, handle] in
            let problem = await model.write(typed, formatIndex: index, to: handle, withResponse: withResponse)
            guard let self else { return }
            self.entryProblem = problem
            if problem == nil { self.rendered = nil }
            if let problem {
                self.writeNote.css("error")
                self.writeNote.text = problem
                self.writeNote.isVisible = true
                self.entry.grabFocus()
            }
        }
    }

    func render(_ c: DeviceServicesViewModel.Characteristic) {
        // The page renders every characteristic when one of them changes.
        let canPair = section?.canPair() ?? false
        guard c != rendered || canPair != renderedCanPair else { return }
        rendered = c
        renderedCanPair = canPair
        title.text = c.title
        uuid = c.uuid
        nameButton.accessibleLabel(L10n.format("Name {}…", c.title))
        buttons.setVisible(nameButton, c.canBeNamed)
        row.accessibleLabel(c.title)
        entry.accessibleLabel(L10n.format("Value to write to {}", c.title))
        format.accessibleLabel(L10n.format("Format of the value for {}", c.title))
        // The Presentation Format is read after the tree; until the user picks one, it decides.
        if c.suggestedFormat != suggestedFormat, !formatChosen {
            suggestedFormat = c.suggestedFormat
            format.selected = c.suggestedFormat
        }
        details.text = c.details
        details.isVisible = !c.details.isEmpty
        descriptors.text = c.descriptors.isEmpty ? "" : L10n.format("Descriptors: {}", c.descriptors.joined(separator: ", "))
        descriptors.isVisible = !c.descriptors.isEmpty
        let value = c.value
        decoded.text = value?.decoded ?? ""
        decoded.isVisible = value?.decoded != nil
        parts.text = value?.parts.joined(separator: "\n") ?? ""
        parts.isVisible = !(value?.parts.isEmpty ?? true)
        text.text = value?.text.map { L10n.format("Text: {}", $0) } ?? ""
        text.isVisible = value?.text != nil
        hex.text = value.map { L10n.format("Hex: {}", $0.hex) } ?? ""
        hex.isVisible = value != nil
        meta.text = value?.meta ?? ""
        meta.isVisible = value != nil
        problem.text = c.readProblem ?? ""
        problem.isVisible = c.readProblem != nil
        buttons.setVisible(pairButton, c.wantsPairing && canPair)
        pairButton.accessibleLabel(L10n.format("Pair to read {}", c.title))
        buttons.setVisible(read, c.canRead)
        // A busy control stays sensitive so it keeps the focus; the browser ignores presses meanwhile.
        read.setLabel(c.busy ? L10n.tr("Reading…") : L10n.tr("Read"))
        read.accessibleLabel(L10n.format("Read {}", c.title))
        buttons.setVisible(copyText, value?.text != nil)
        copyText.accessibleLabel(L10n.format("Copy {} as text", c.title))
        buttons.setVisible(copyHex, value != nil)
        copyHex.accessibleLabel(L10n.format("Copy {} as hex", c.title))
        writeRow.isVisible = c.canWrite || c.canWriteWithoutResponse
        writeHint.text = c.writeHint ?? ""
        writeHint.isVisible = c.writeHint != nil
        entry.accessibleDescription(c.writeHint ?? "")
        writeControls.setVisible(write, c.canWrite)
        write.accessibleLabel(L10n.format("Write to {}", c.title))
        writeControls.setVisible(writeCommand, c.canWriteWithoutResponse)
        writeCommand.accessibleLabel(L10n.format("Write to {} without response", c.title))
        notifyRow.isVisible = c.canSubscribe
        if notify.isOn != c.subscribed {
            settingSwitch = true
            notify.isOn = c.subscribed
            settingSwitch = false
        }
        notify.accessibleLabel(L10n.format("Notifications from {}", c.title))
        subscribeProblem.text = c.subscribeProblem ?? ""
        subscribeProblem.isVisible = c.subscribeProblem != nil
        followedNote.text = c.followedNote ?? ""
        followedNote.isVisible = c.followedNote != nil
        let log = c.log
        isLogging = c.subscribed
        paused = log?.paused ?? false
        rate.text = c.subscribed ? (log?.rate ?? "") : ""
        rate.isVisible = c.subscribed
        logCount.text = log?.count ?? ""
        logCount.isVisible = log != nil
        logLines.text = log?.lines.joined(separator: "\n") ?? ""
        plot.show(log?.figures ?? [], scale: log?.scale, name: c.title, summary: log?.plotSummary)
        logLines.isVisible = !(log?.isEmpty ?? true)
        logButtons.isVisible = log != nil
        pause.setLabel(paused ? L10n.tr("Resume") : L10n.tr("Pause"))
        pause.accessibleLabel(paused ? L10n.format("Resume the log of {}", c.title) : L10n.format("Pause the log of {}", c.title))
        clear.accessibleLabel(L10n.format("Clear the log of {}", c.title))
        copyLog.accessibleLabel(L10n.format("Copy the log of {}", c.title))
        exportLog.accessibleLabel(L10n.format("Export the log of {}", c.title))
        for button in [clear, copyLog, exportLog] { button.isSensitive = !(log?.isEmpty ?? true) }
        if entryProblem == nil {
            writeNote.text = c.writeNote ?? ""
            writeNote.isVisible = c.writeNote != nil
            if c.writeFailed { writeNote.css("error") } else { writeNote.removeCSS("error") }
        }
    }
}
