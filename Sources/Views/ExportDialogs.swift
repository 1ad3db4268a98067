// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// Which list Export takes: the favorites, or the Scanner's rows as shown.
public enum ExportScope: Sendable {
    case favorites
    case scanner
}

/// Taking data away: Export Devices…, Export Signal History… and the file a recording goes to.
/// Each asks for a file with the system's chooser, writes off the main thread, and ends with a
/// notice saying where the file went, or a dialog saying what failed and what to do.
@MainActor
public enum ExportDialogs {
    /// Saves what the page shows as CSV or JSON (the file name's extension decides): the
    /// Scanner's rows as listed now, or the favorites.
    public static func exportDevices(navigator: Navigator, scope: ExportScope, scanner: ScannerViewModel,
                                     favorites: FavoritesViewModel) {
        let isFavorites = scope == .favorites
        let suggested = (isFavorites ? L10n.format("Favorites {}", fileStamp(Date()))
                         : L10n.format("Devices {}", fileStamp(Date()))) + ".csv"
        let title = isFavorites ? L10n.tr("Export Favorites") : L10n.tr("Export Devices")
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: title,
                                    acceptLabel: L10n.tr("_Save"), cancelLabel: L10n.tr("_Cancel"), suggestedName: suggested,
                                    filters: [.init(name: L10n.tr("CSV (*.csv)"), pattern: "*.csv"),
                                              .init(name: L10n.tr("JSON (*.json)"), pattern: "*.json")])
        dialog.present { [weak navigator, weak scanner, weak favorites] path, filter in
            guard let path, let navigator, let scanner, let favorites else { return }
            let target = ExportFormat.resolve(path: path, fallback: filter == 1 ? .json : .csv)
            // Taken now: the list may change while the file is written.
            let records = isFavorites ? favorites.exportRecords() : scanner.exportRecords()
            let file = DeviceText.isolated(fileName(target.path))
            let done = isFavorites
                ? L10n.plural("Exported {} favorite to “{}”", "Exported {} favorites to “{}”", records.count, records.count, file)
                : L10n.plural("Exported {} device to “{}”", "Exported {} devices to “{}”", records.count, records.count, file)
            confirmReplacing(target.path, ifAdded: target.extended, navigator: navigator) {
                save(to: target.path, navigator: navigator, done: done) {
                    DeviceExport.document(records, format: target.format)
                }
            }
        }
    }

    /// Saves a device's signal readings (the plotted window and every stored sighting) as `time,rssi`.
    static func exportSignalHistory(navigator: Navigator, model: DeviceDetailViewModel) {
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Export Signal History"),
                                    acceptLabel: L10n.tr("_Save"), cancelLabel: L10n.tr("_Cancel"),
                                    suggestedName: model.historyFileName,
                                    filters: [.init(name: L10n.tr("CSV (*.csv)"), pattern: "*.csv")])
        dialog.present { [weak navigator, weak model] path, _ in
            guard let path, let navigator, let model else { return }
            let target = ExportFormat.resolve(path: path, fallback: .csv)
            Task { @MainActor in
                let readings = await model.exportableHistory()
                confirmReplacing(target.path, ifAdded: target.extended, navigator: navigator) {
                    save(to: target.path, navigator: navigator,
                         done: L10n.plural("Exported {} reading to “{}”", "Exported {} readings to “{}”", readings.count,
                                           readings.count, DeviceText.isolated(fileName(target.path)))) {
                        DeviceExport.signalHistory(readings)
                    }
                }
            }
        }
    }

    /// Saves a characteristic's notification log as CSV or JSON (the file name's extension decides).
    static func exportNotificationLog(navigator: Navigator, model: DeviceServicesViewModel, handle: UInt16) {
        let suggested = model.logFileName(handle) + " " + fileStamp(Date()) + ".csv"
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Export Notifications"),
                                    acceptLabel: L10n.tr("_Save"), cancelLabel: L10n.tr("_Cancel"), suggestedName: suggested,
                                    filters: [.init(name: L10n.tr("CSV (*.csv)"), pattern: "*.csv"),
                                              .init(name: L10n.tr("JSON (*.json)"), pattern: "*.json")])
        dialog.present { [weak navigator, weak model] path, filter in
            guard let path, let navigator, let model else { return }
            let target = ExportFormat.resolve(path: path, fallback: filter == 1 ? .json : .csv)
            // Taken now: notifications keep arriving while the file is written.
            let count = model.logCount(handle)
            let document = model.logDocument(handle, format: target.format)
            let done = L10n.plural("Exported {} notification to “{}”", "Exported {} notifications to “{}”", count, count,
                                   DeviceText.isolated(fileName(target.path)))
            confirmReplacing(target.path, ifAdded: target.extended, navigator: navigator) {
                save(to: target.path, navigator: navigator, done: done) { document }
            }
        }
    }

    /// Asks where a recording goes; `completion` gets the path, or nil when cancelled.
    static func chooseRecording(navigator: Navigator, completion: @escaping (String?) -> Void) {
        let suggested = L10n.format("Scan {}", fileStamp(Date())) + ".btsnoop"
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Record Scan"),
                                    acceptLabel: L10n.tr("_Record"), cancelLabel: L10n.tr("_Cancel"), suggestedName: suggested,
                                    filters: [.init(name: L10n.tr("btsnoop captures (*.btsnoop)"), pattern: "*.btsnoop")])
        dialog.present { path, _ in completion(path) }
    }

    /// Says that something could not be written, and what to do.
    static func showFailure(heading: String, message: String, parent: Window) {
        let dialog = MessageDialog(parent: parent, heading: heading, body: message)
        dialog.addResponse("close", label: L10n.tr("_Close"))
        dialog.setDefault("close", close: "close")
        dialog.present()
    }

    // MARK: Steps

    /// Runs `then` at once, or, when the extension was added to the typed name and that file
    /// exists, after asking: the chooser only asked about the name as typed.
    private static func confirmReplacing(_ path: String, ifAdded added: Bool, navigator: Navigator,
                                         then: @escaping @MainActor () -> Void) {
        guard added, FileManager.default.fileExists(atPath: path) else { return then() }
        let dialog = MessageDialog(parent: navigator.parentWindow,
                                   heading: L10n.format("Replace “{}”?", DeviceText.isolated(fileName(path))),
                                   body: L10n.tr("A file with this name already exists. Replacing it overwrites what it holds."))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("replace", label: L10n.tr("_Replace"), appearance: .destructive) { then() }
        dialog.setDefault("cancel", close: "cancel")
        dialog.present()
    }

    /// Encodes and writes on a background thread, then tells the user how it went.
    private static func save(to path: String, navigator: Navigator, done: String,
                             encode: @escaping @Sendable () -> Data) {
        Task { @MainActor [weak navigator] in
            let data = await Task.detached(priority: .userInitiated) { encode() }.value
            do {
                try await ExportFile.save(data, to: path)
                navigator?.toast(done, button: nil, action: nil)
            } catch let failure as ExportFile.Failure {
                guard let navigator else { return }
                showFailure(heading: L10n.tr("Export Failed"), message: failure.message + "\n\n" + failure.suggestion,
                            parent: navigator.parentWindow)
            } catch {}
        }
    }

    private static func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }

    /// "2024-05-01 09-30": sorts by time and is valid on every file system.
    private static func fileStamp(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ v: Int?) -> String { v.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour))-\(two(c.minute))"
    }
}
