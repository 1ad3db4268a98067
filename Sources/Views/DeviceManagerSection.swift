// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// The Device Manager: on a device's page while it is connected and has MCUmgr's SMP service,
/// or a network device's page alone. Its image slots (version, state, hash to copy), what it says
/// of itself, Update Firmware with its progress and Cancel, Restart, Erase Spare Slot and Echo;
/// Statistics, Shell and Files where the device answers those groups.
@MainActor
final class DeviceManagerSection {
    let root = Box(vertical: true, spacing: 12)
    private let heading = Label(L10n.tr("Device Manager")).xalign(0)
    private let status = Label()
    private let images = PropertyList(accessibleName: L10n.tr("Images"))
    private let facts = PropertyList(accessibleName: L10n.tr("About the Device Manager"))
    private let bootloaderRow = PropertyRow(title: L10n.tr("Bootloader"))
    private let buffersRow = PropertyRow(title: L10n.tr("Buffers"))

    private let updateBox = Box(vertical: true, spacing: 6)
    private let updateTitle = Label().xalign(0)
    private let progress = ProgressBar(accessibleName: L10n.tr("Update progress"))
    private let updateStep = Label()
    private let updateFigures = Label()
    private let updateButton = Button(label: L10n.tr("Cancel Update"))

    private let updateFirmware = Button(label: L10n.tr("Update Firmware…"))
    let restart = Button(label: L10n.tr("Restart…"))
    let erase = Button(label: L10n.tr("Erase Spare Slot…"))
    private let echoList = BoxedList(accessibleName: L10n.tr("Echo"))
    private let echoEntry = EntryRow(title: L10n.tr("Echo"), text: "hello")
    private let echoButton = Button(label: L10n.tr("Send"))
    private let note = Label()
    /// Rows of buttons that stack when the window is narrow.
    private let first = Box(vertical: false, spacing: 6)
    private let fileButtons = Box(vertical: false, spacing: 6)
    private let retry = Button(label: L10n.tr("Try Again"))
    private let pairAndOpen = Button(label: L10n.tr("_Pair and Open"), mnemonic: true)

    private let statisticsBox = Box(vertical: true, spacing: 6)
    private let statisticsList = BoxedList(accessibleName: L10n.tr("Statistics"))
    private let refreshStatistics = Button(label: L10n.tr("Refresh Statistics"))
    private var shownStatistics: [DeviceManagerViewModel.Statistics]?
    /// Each group's counter rows, in order, so a Refresh sets their figures in place.
    private var statisticsLines: [[PropertyRow]] = []

    private let shellBox = Box(vertical: true, spacing: 6)
    private let shellEntry = EntryRow(title: L10n.tr("Command"))
    private let shellRun = Button(label: L10n.tr("Run"))
    private let shellOutput = Label()

    private let filesBox = Box(vertical: true, spacing: 6)
    private let pathEntry = EntryRow(title: L10n.tr("Path on the Device"), text: "/lfs/")
    private let download = Button(label: L10n.tr("Download…"))
    private let upload = Button(label: L10n.tr("Upload…"))
    private let transferNote = Label()

    /// The largest file Upload… reads: a device's file system holds far less.
    static let largestUpload = 16 << 20

    let model: DeviceManagerViewModel
    private(set) weak var navigator: Navigator?
    private var token: ObservationToken?
    private var slotRows: [SlotRow] = []
    private var shownSlots: [DeviceManagerViewModel.Slot] = []

    init(model: DeviceManagerViewModel, navigator: Navigator) {
        self.model = model
        self.navigator = navigator
        heading.css("heading")
        for label in [status, updateStep, updateFigures, note] { label.xalign(0).wrap() }
        status.css("dim-text")
        updateFigures.css("dim-text", "numeric")
        updateTitle.css("heading")
        facts.append(bootloaderRow)
        facts.append(buffersRow)

        updateButton.align(.end, .center)
        // The card holds the update; its content keeps the card's own padding.
        let updateContent = Box(vertical: true, spacing: 6).append(updateTitle, progress, updateStep, updateFigures, updateButton)
        updateContent.margins(12)
        updateBox.append(updateContent)
        updateBox.css("card")

        // Erase is destructive in its question; here it sits as any other button.
        updateFirmware.css("suggested-action")
        first.append(updateFirmware, restart)
        let second = Box(vertical: false, spacing: 6).append(erase)
        for button in [updateFirmware, restart, erase] { button.expand(horizontal: true, vertical: false) }
        echoButton.css("flat")
        echoButton.align(.center, .center)
        echoButton.accessibleLabel(L10n.tr("Send Echo"))
        echoEntry.addSuffix(echoButton)
        echoList.append(echoEntry)

        retry.align(.start, .center)
        retry.onClicked { [weak self] in self?.model.refresh() }
        pairAndOpen.align(.start, .center)
        pairAndOpen.css("suggested-action")
        pairAndOpen.onClicked { [weak self] in self?.model.pairAndOpen() }

        // Statistics, Shell and Files: each only where the device answers its group.
        let statisticsHeading = Label(L10n.tr("Statistics")).xalign(0)
        statisticsHeading.css("heading")
        refreshStatistics.align(.start, .center)
        refreshStatistics.onClicked { [weak self] in self?.model.refreshStatistics() }
        statisticsBox.append(statisticsHeading, statisticsList, refreshStatistics)

        let shellHeading = Label(L10n.tr("Shell")).xalign(0)
        shellHeading.css("heading")
        let shellList = BoxedList(accessibleName: L10n.tr("Shell"))
        shellRun.css("flat")
        shellRun.align(.center, .center)
        shellRun.accessibleLabel(L10n.tr("Run the Command"))
        shellEntry.addSuffix(shellRun)
        shellList.append(shellEntry)
        // What a device prints is text, never markup, and may be copied.
        shellOutput.xalign(0).wrap()
        shellOutput.isSelectable = true
        shellOutput.css("monospace", "card")
        shellOutput.margins(0)
        shellOutput.accessibleLabel(L10n.tr("Shell output"))
        shellBox.append(shellHeading, shellList, shellOutput)
        shellRun.onClicked { [weak self] in self?.runShell() }
        shellEntry.onSubmitted { [weak self] in self?.runShell() }

        let filesHeading = Label(L10n.tr("Files")).xalign(0)
        filesHeading.css("heading")
        let filesList = BoxedList(accessibleName: L10n.tr("Files"))
        filesList.append(pathEntry)
        fileButtons.append(download, upload)
        for button in [download, upload] { button.expand(horizontal: true, vertical: false) }
        download.accessibleLabel(L10n.tr("Download the File…"))
        upload.accessibleLabel(L10n.tr("Upload a File…"))
        transferNote.xalign(0).wrap()
        filesBox.append(filesHeading, filesList, fileButtons, transferNote)
        download.onClicked { [weak self] in self?.downloadFile() }
        upload.onClicked { [weak self] in self?.uploadFile() }

        root.append(heading, status, retry, pairAndOpen, images, facts, updateBox, first, second, echoList, note, statisticsBox, shellBox, filesBox)
        updateFirmware.onClicked { [weak self] in self?.chooseFile() }
        restart.onClicked { [weak self] in self?.askRestart() }
        erase.onClicked { [weak self] in self?.askErase() }
        echoButton.onClicked { [weak self] in self?.sendEcho() }
        echoEntry.onSubmitted { [weak self] in self?.sendEcho() }
        updateButton.onClicked { [weak self] in
            guard let self else { return }
            if model.update?.isRunning == true { model.cancelUpdate() } else { model.dismissUpdate() }
        }
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    /// Stacks the rows of buttons in a narrow window, where two side by side do not fit in German.
    func adapt(narrow: Bool) {
        first.isVertical = narrow
        fileButtons.isVertical = narrow
    }

    func render() {
        root.isVisible = model.isShown
        guard model.isShown else { return }
        let statusText = model.status
        status.text = statusText ?? ""
        status.isVisible = statusText != nil
        retry.isVisible = model.canRetry
        pairAndOpen.isVisible = model.canPairAndOpen

        let slots = model.slots
        if slots != shownSlots {
            shownSlots = slots
            // The same slots with new states are set in place: a rebuilt row would take the
            // keyboard from a Copy button under it (a refresh after Copy Hash).
            if slots.map(\.title) != slotRows.map(\.title) {
                // A slot came or went (Erase Spare Slot): the keyboard stays on the slot it was on,
                // else goes to the first.
                let focused = slotRows.first(where: \.hasFocus)?.title
                images.removeAll()
                slotRows = slots.map { slot in
                    let row = SlotRow(title: slot.title, navigator: navigator)
                    images.append(row.row)
                    return row
                }
                if let focused { (slotRows.first { $0.title == focused } ?? slotRows.first)?.focus() }
            }
            for (row, slot) in zip(slotRows, slots) { row.show(slot) }
        }
        images.isVisible = !slots.isEmpty
        bootloaderRow.value = model.bootloader ?? ""
        bootloaderRow.isVisible = model.bootloader != nil
        buffersRow.value = model.buffers ?? ""
        buffersRow.isVisible = model.buffers != nil
        facts.isVisible = model.bootloader != nil || model.buffers != nil

        if let update = model.update {
            updateBox.isVisible = true
            updateTitle.text = update.title
            updateStep.text = update.step
            if update.failed { updateStep.css("error") } else { updateStep.removeCSS("error") }
            updateFigures.text = update.progress ?? ""
            updateFigures.isVisible = update.progress != nil
            progress.isVisible = update.isRunning
            if let fraction = update.fraction { progress.fraction = fraction } else if update.isRunning { progress.pulse() }
            updateButton.setLabel(update.isRunning ? L10n.tr("Cancel Update") : L10n.tr("Close"))
            updateButton.accessibleLabel(update.isRunning ? L10n.tr("Cancel Update") : L10n.tr("Close the update’s summary"))
        } else {
            updateBox.isVisible = false
        }

        updateFirmware.isSensitive = model.canAct
        restart.isSensitive = model.canAct
        erase.isSensitive = model.canAct && model.hasSpare
        // A build without the image group has no firmware to update here.
        updateFirmware.isVisible = model.hasImages
        erase.isVisible = model.hasImages
        echoButton.isSensitive = model.canAct
        let said = model.note
        note.text = said?.text ?? ""
        note.isVisible = said != nil
        if said?.isProblem == true { note.css("error") } else { note.removeCSS("error") }
        renderGroups()
    }

    private func renderGroups() {
        let statistics = model.statistics
        statisticsBox.isVisible = statistics != nil
        if let statistics, statistics != shownStatistics {
            // The same groups and counters again (a Refresh): new figures in place, so an open group stays open.
            let sameShape = shownStatistics.map { shown in
                shown.map { [$0.title] + $0.counters.map(\.name) } == statistics.map { [$0.title] + $0.counters.map(\.name) }
            } ?? false
            shownStatistics = statistics
            if sameShape {
                for (group, lines) in zip(statistics, statisticsLines) {
                    for (counter, line) in zip(group.counters, lines) where line.value != counter.value { line.value = counter.value }
                }
            } else {
                statisticsList.removeAll()
                statisticsLines = []
                for group in statistics {
                    let row = ExpanderRow(title: group.title,
                                          subtitle: L10n.plural("{} counter", "{} counters", group.counters.count, Formats.number(group.counters.count)))
                    var lines: [PropertyRow] = []
                    for counter in group.counters {
                        let line = PropertyRow(title: counter.name)
                        line.value = counter.value
                        row.addRow(line)
                        lines.append(line)
                    }
                    statisticsList.append(row)
                    statisticsLines.append(lines)
                }
            }
        }
        refreshStatistics.isSensitive = model.canAct

        shellBox.isVisible = model.hasShell
        let runs = model.shellRuns
        shellOutput.text = runs.suffix(5).map { $0.command + "\n" + $0.output }.joined(separator: "\n")
        shellOutput.isVisible = !runs.isEmpty
        shellRun.isSensitive = model.canAct

        filesBox.isVisible = model.hasFiles
        download.isSensitive = model.canAct
        upload.isSensitive = model.canAct
        let transfer = model.transfer
        transferNote.text = transfer?.text ?? ""
        transferNote.isVisible = transfer != nil
        if transfer?.isProblem == true { transferNote.css("error") } else { transferNote.removeCSS("error") }
    }

    private func runShell() {
        guard model.canAct else { return }
        model.runShell(shellEntry.text)
    }

    /// The path typed, or nil (with the field marked) where it names no file.
    private func devicePath() -> String? {
        let path = pathEntry.text.trimmingCharacters(in: .whitespaces)
        let valid = path.hasPrefix("/") && !path.hasSuffix("/")
        pathEntry.setInvalid(!valid)
        if !valid { navigator?.toast(L10n.tr("Type the file’s whole path on the device, such as /lfs/settings.txt."), button: nil, action: nil) }
        return valid ? path : nil
    }

    private func downloadFile() {
        guard let navigator, let path = devicePath() else { return }
        let name = (path as NSString).lastPathComponent
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Save the Device’s File"),
                                    acceptLabel: L10n.tr("_Save"), cancelLabel: L10n.tr("_Cancel"), suggestedName: name, filters: [])
        dialog.present { [weak self] local, _ in
            guard let self, let local else { self?.download.grabFocus(); return }
            model.downloadFile(path) { data in
                FileManager.default.createFile(atPath: local, contents: Data(data))
                    ? nil : L10n.tr("The file could not be saved there. Choose another folder.")
            }
            download.grabFocus()
        }
    }

    private func uploadFile() {
        guard let navigator, let path = devicePath() else { return }
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Choose a File to Upload"),
                                    acceptLabel: L10n.tr("_Open"), cancelLabel: L10n.tr("_Cancel"), suggestedName: "",
                                    filters: [], opening: true)
        dialog.present { [weak self] local, _ in
            guard let self, let local else { self?.upload.grabFocus(); return }
            let size = (try? FileManager.default.attributesOfItem(atPath: local)[.size] as? Int) ?? 0
            if size > Self.largestUpload {
                navigator.toast(L10n.format("“{}” is {}; FavBlue sends files up to {}.", DeviceText.isolated(local), Formats.bytes(size),
                                            Formats.bytes(Self.largestUpload)), button: nil, action: nil)
            } else if let data = FileManager.default.contents(atPath: local) {
                model.uploadFile([UInt8](data), to: path)
            } else {
                navigator.toast(L10n.format("“{}” could not be read.", DeviceText.isolated(local)), button: nil, action: nil)
            }
            upload.grabFocus()
        }
    }

    // MARK: Requests

    private func sendEcho() {
        guard model.canAct else { return }
        model.echo(echoEntry.text)
    }

    // MARK: Update Firmware

    private func chooseFile() {
        guard let navigator else { return }
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Choose a Firmware Image"),
                                    acceptLabel: L10n.tr("_Open"), cancelLabel: L10n.tr("_Cancel"), suggestedName: "",
                                    filters: [.init(name: L10n.tr("MCUboot images and nRF Connect SDK packages (*.bin, *.zip)"),
                                                    patterns: ["*.bin", "*.zip"])], opening: true,
                                    folder: model.firmwareFolder())
        dialog.present { [weak self] path, _ in
            guard let self, let path else { self?.updateFirmware.grabFocus(); return }
            self.offer(path)
        }
    }

    /// Reads the file (refusing one larger than any image before reading it), checks it, and asks.
    private func offer(_ path: String) {
        guard let navigator else { return }
        let name = (path as NSString).lastPathComponent
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        let check: DeviceManagerViewModel.FileCheck
        if let size, size > MCUbootImage.maximumFileSize {
            check = .refused(L10n.format("It is {}, larger than any firmware image.", Formats.bytes(size)))
        } else if let data = FileManager.default.contents(atPath: path) {
            check = model.check([UInt8](data))
        } else {
            check = .refused(L10n.tr("It could not be read. Check that it is there and that you may read it."))
        }
        switch check {
        case .refused(let why):
            let dialog = MessageDialog(parent: navigator.parentWindow, heading: L10n.tr("This File Cannot Be Sent"),
                                       body: L10n.format("{} — {}", DeviceText.isolated(name), why))
            dialog.addResponse("close", label: L10n.tr("_Close"))
            dialog.setDefault("close", close: "close")
            dialog.onClosed { [weak self] in self?.updateFirmware.grabFocus() }
            dialog.present()
        case .ready(let summary, let images):
            let version = (images.first { $0.number == 0 } ?? images[0]).image.version.description
            let dialog = MessageDialog(parent: navigator.parentWindow,
                                       heading: L10n.format("Update to {}?", version),
                                       body: L10n.format("{}\n{}", DeviceText.isolated(name), summary))
            let modes = DropDown(DeviceManagerViewModel.modeNames, accessibleName: L10n.tr("Mode"))
            let explanation = Label(DeviceManagerViewModel.explain(.testAndConfirm)).xalign(0).wrap()
            explanation.css("dim-text")
            modes.onSelected { index in
                explanation.text = DeviceManagerViewModel.explain(FirmwareUpdate.Mode.allCases[index])
            }
            dialog.setExtraChild(Box(vertical: true, spacing: 6).append(modes, explanation))
            dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
            dialog.addResponse("update", label: L10n.tr("_Update"), appearance: .suggested) { [weak self] in
                self?.model.startUpdate(images, fileName: name, mode: FirmwareUpdate.Mode.allCases[modes.selected])
            }
            dialog.setDefault("update", close: "cancel")
            dialog.onClosed { [weak self] in
                guard let self else { return }
                if model.update?.isRunning == true { updateButton.grabFocus() } else { updateFirmware.grabFocus() }
            }
            dialog.present()
        }
    }
}
