// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The detail page's Device Manager (Domain's `DeviceManager`) in words: the image slots, what
/// the device says of itself, the requests, and Update Firmware from the file's check to the
/// version running after.
@MainActor
public final class DeviceManagerViewModel {
    /// One image slot, as its row shows it.
    public struct Slot: Equatable {
        /// "Slot 0"; "Image 1, Slot 0" where the device has several images.
        public let title: String
        /// "1.0.0 · Running, confirmed".
        public let value: String
        /// The first eight hex digits of its hash ("1a2b3c4d").
        public let shortHash: String
        /// The whole hash, for Copy.
        public let hash: String
    }

    /// A file chosen for Update Firmware, checked before any byte is sent.
    public enum FileCheck: Equatable {
        /// "Version 1.2.0 · 112 KiB · Hash 1a2b3c4d…" (a line for each image of a package for
        /// several cores), with the images to send, image 0 first.
        case ready(summary: String, images: [UpdateImage])
        /// Why it cannot be sent.
        case refused(String)
    }

    /// The device on whose page it is; nil for a device reached by network or line, whose page it is alone.
    public let device: DeviceID?
    private let manager: DeviceManager

    /// Where Update Firmware… opens its chooser: the demo's folder of images in the demo, else nil (Documents).
    public let firmwareFolder: () -> String?

    /// Pairs with the device, asking the user what it asks; true once paired.
    private let pair: ((DeviceID) async -> Bool)?

    /// Unpacks a package's deflated member (raw deflate) to its size; nil where it cannot.
    private let inflate: ([UInt8], Int) -> [UInt8]?

    public init(device: DeviceID?, manager: DeviceManager, pair: ((DeviceID) async -> Bool)? = nil,
                inflate: @escaping ([UInt8], Int) -> [UInt8]? = { _, _ in nil }, firmwareFolder: @escaping () -> String? = { nil }) {
        self.device = device
        self.manager = manager
        self.pair = pair
        self.inflate = inflate
        self.firmwareFolder = firmwareFolder
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { manager.observe(handler) }

    /// Whether the section shows: this device is connected and has a Device Manager.
    public var isShown: Bool {
        manager.networkName != nil || manager.device == device && manager.phase != .absent
    }

    /// The page's title for a device reached by network or line ("192.168.1.20").
    public var networkName: String? { manager.networkName }

    /// A line while there is nothing else to show: asking, or why the device did not answer.
    public var status: String? {
        switch manager.phase {
        case .opening where manager.slots.isEmpty: return L10n.tr("Asking the device…")
        case .failed(let why): return L10n.format("The device’s Device Manager did not answer: {}", why)
        case .needsPairing:
            return manager.isPairing ? L10n.tr("Pairing…") : SMPProblem.needsPairing.message
        default: return nil
        }
    }

    /// Whether Pair and Open is offered: the device answers on a paired link only.
    public var canPairAndOpen: Bool { manager.phase == .needsPairing && pair != nil && device != nil && !manager.isPairing }

    /// Pairs, then opens the Device Manager again; a failed pairing is said by the pairing's own notice.
    public func pairAndOpen() {
        guard let device, let pair else { return }
        manager.pairThenOpen { await pair(device) }
    }

    public var isBusy: Bool { manager.action != nil || manager.update?.isRunning == true }

    public var slots: [Slot] {
        let images = Set(manager.slots.map(\.image)).count
        return manager.slots.map { slot in
            let hash = slot.hash.map { String(format: "%02x", $0) }.joined()
            let title = images > 1 ? L10n.format("Image {}, Slot {}", Formats.number(slot.image), Formats.number(slot.slot))
                                   : L10n.format("Slot {}", Formats.number(slot.slot))
            return Slot(title: title, value: L10n.format("{} · {}", DeviceText.isolated(slot.version), Self.state(of: slot)),
                        shortHash: String(hash.prefix(8)), hash: hash)
        }
    }

    /// A slot's state in words: running, confirmed, will run once or from now on, bootable.
    static func state(of slot: ImageSlot) -> String {
        var words: [String] = []
        if slot.active { words.append(L10n.ctx("firmware image", "Running")) }
        if slot.confirmed { words.append(L10n.ctx("firmware image", "confirmed")) }
        if slot.pending {
            words.append(slot.permanent ? L10n.tr("will run from the next restart on") : L10n.tr("will run once after the next restart"))
        }
        if words.isEmpty { words.append(slot.bootable ? L10n.tr("Bootable") : L10n.tr("Not bootable")) }
        let text = words.joined(separator: L10n.tr(", "))
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// "MCUboot"; nil where the device does not say.
    public var bootloader: String? { manager.bootloader.map(DeviceText.isolated) }

    /// "4 × 512 bytes": how many requests the device holds at once, and how big each may be,
    /// in bytes as MCUmgr's settings give them.
    public var buffers: String? {
        manager.parameters.map {
            L10n.format("{} × {}", Formats.number($0.bufferCount),
                        L10n.plural("{} byte", "{} bytes", $0.bufferSize, Formats.number($0.bufferSize)))
        }
    }

    /// What came of the last request.
    public var note: (text: String, isProblem: Bool)? { manager.note }

    public var canAct: Bool { manager.phase == .ready && !isBusy }
    public var canRetry: Bool { if case .failed = manager.phase { return !isBusy } else { return false } }

    // MARK: Statistics, shell, files

    /// One statistics group: its name and a line a counter ("ticks", "1,234").
    public struct Statistics: Equatable {
        public let title: String
        public let counters: [(name: String, value: String)]

        public static func == (a: Statistics, b: Statistics) -> Bool {
            a.title == b.title && a.counters.map(\.name) == b.counters.map(\.name) && a.counters.map(\.value) == b.counters.map(\.value)
        }
    }

    /// The statistics groups; nil where the device has none (then the section shows none).
    public var statistics: [Statistics]? {
        manager.statistics.map { groups in
            groups.map { group in
                Statistics(title: DeviceText.isolated(group.name),
                           counters: group.counters.map { (DeviceText.isolated($0.name), Formats.number(Int(clamping: $0.value))) })
            }
        }
    }

    public var hasImages: Bool { manager.hasImages }
    public var hasShell: Bool { manager.hasShell }
    public var hasFiles: Bool { manager.hasFiles }

    /// The shell's commands and what each printed, newest last, as plain text.
    public var shellRuns: [(command: String, output: String)] {
        manager.shellRuns.map { run in
            let output: String
            if let problem = run.problem {
                output = problem
            } else if let code = run.code, code != 0 {
                output = run.output + (run.output.isEmpty || run.output.hasSuffix("\n") ? "" : "\n")
                    + L10n.format("The command ended with code {}.", Formats.number(Int(clamping: code)))
            } else {
                output = run.output
            }
            return ("$ " + Self.plain(run.command), Self.plain(output))
        }
    }

    /// A device's shell output as lines of text: its line ends made one kind, its terminal's
    /// colour and cursor sequences (ESC [ … a letter) and other control characters dropped, the
    /// blank lines around it trimmed.
    static func plain(_ text: String) -> String {
        var out = ""
        var scalars = text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars.makeIterator()
        while let c = scalars.next() {
            switch c.value {
            case 0x1B:
                // CSI: ESC [ parameters… final byte in @…~; any other escape takes one more character.
                guard let next = scalars.next(), next == "[" else { continue }
                while let p = scalars.next(), !(0x40...0x7E).contains(p.value) {}
            case 0x0D: out.unicodeScalars.append("\n")
            case 0x0A, 0x09: out.unicodeScalars.append(c)
            case 0x00..<0x20, 0x7F, 0x80..<0xA0: continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out.trimmingCharacters(in: .newlines)
    }

    public func runShell(_ line: String) { manager.runShell(line) }
    public func refreshStatistics() { manager.refreshStatistics() }
    public func downloadFile(_ path: String, save: @escaping @MainActor ([UInt8]) -> String?) { manager.downloadFile(path, save: save) }
    public func uploadFile(_ data: [UInt8], to path: String) { manager.uploadFile(data, to: path) }

    /// The file going to or from the device, in words: "12 KiB of 40 KiB", then done or why not.
    public var transfer: (text: String, isProblem: Bool)? {
        guard let t = manager.transfer else { return nil }
        let path = DeviceText.isolated(t.path)
        if t.over {
            if let problem = t.problem { return (L10n.format("{}: {}", path, problem), true) }
            return (t.upload ? L10n.format("{} is on the device ({}).", path, Formats.bytes(t.progress.total))
                             : L10n.format("{} was saved ({}).", path, Formats.bytes(t.progress.done)), false)
        }
        if t.progress.preparing || t.progress.total == 0 {
            return (t.upload ? L10n.format("Sending {}…", path) : L10n.format("Fetching {}…", path), false)
        }
        return (L10n.format("{}: {} of {}", path, Formats.bytes(t.progress.done), Formats.bytes(t.progress.total)), false)
    }
    public var isEchoing: Bool { manager.action == .echo }

    public func echo(_ text: String) { manager.echo(text) }
    public func restart() { manager.restart() }
    public func eraseSpare() { manager.eraseSpare() }
    public func refresh() { manager.refresh() }

    /// Whether there is a spare slot to erase: one that does not run.
    public var hasSpare: Bool { manager.slots.contains { !$0.active } }

    // MARK: Update Firmware

    /// The modes, as the choice lists them, in `FirmwareUpdate.Mode.allCases` order.
    public static var modeNames: [String] {
        [L10n.tr("Test and Confirm"), L10n.tr("Confirm Only"), L10n.tr("Test Only")]
    }

    /// What each mode does, under the choice.
    public static func explain(_ mode: FirmwareUpdate.Mode) -> String {
        switch mode {
        case .testAndConfirm: return L10n.tr("The device restarts into the new image, and FavBlue confirms it once it runs. If it does not come back, the device goes back to the old one.")
        case .confirmOnly: return L10n.tr("The device restarts into the new image and keeps it, unchecked.")
        case .testOnly: return L10n.tr("The new image runs once, at the device’s next restart, which is yours to make.")
        }
    }

    /// Reads the chosen file (an image, or a package whose manifest names one for each core)
    /// and checks each image as MCUboot will, before any byte goes out.
    public func check(_ file: [UInt8]) -> FileCheck {
        let images: [UpdateImage]
        do throws(FirmwareFileProblem) { images = try UpdateImage.read(file, inflate: inflate) } catch {
            switch error {
            case .package(let problem): return .refused(problem.message)
            case .image(let member?, let problem): return .refused(L10n.format("{}: {}", DeviceText.isolated(member), problem.message))
            case .image(nil, let problem): return .refused(problem.message)
            }
        }
        let lines = images.map { update in
            var parts = [L10n.format("Version {}", update.image.version.description), Formats.bytes(update.bytes.count)]
            if let hash = update.image.hash { parts.append(L10n.format("Hash {}…", Hex.lower(hash.prefix(4)))) }
            let summary = parts.joined(separator: " · ")
            return images.count > 1 ? L10n.format("Image {}: {}", Formats.number(update.number), summary) : summary
        }
        return .ready(summary: lines.joined(separator: "\n"), images: images)
    }

    public func startUpdate(_ images: [UpdateImage], fileName: String, mode: FirmwareUpdate.Mode) {
        manager.startUpdate(images, fileName: fileName, mode: mode)
    }

    public func cancelUpdate() { manager.cancelUpdate() }
    public func dismissUpdate() { manager.dismissUpdate() }

    /// Update Firmware as the section shows it while it runs and after.
    public struct Update: Equatable {
        /// "Updating to 1.2.0" (the file's name in the description).
        public let title: String
        /// The step in words ("Sending the image…"); on failure, which step failed, why, and what next.
        public let step: String
        /// "40 KiB of 112 KiB · 12 KiB/s · 6 s left" while the image goes up.
        public let progress: String?
        /// 0…1 while the image goes up.
        public let fraction: Double?
        public let isRunning: Bool
        public let failed: Bool
    }

    public var update: Update? {
        guard let run = manager.update else { return nil }
        let version = run.image.version.description
        let title: String
        if case .done = run.step, run.failure == nil, !run.cancelled {
            title = L10n.format("Updated to {}", version)
        } else if run.isRunning {
            title = L10n.format("Updating to {}", version)
        } else {
            title = L10n.format("Update to {}", version)
        }
        if run.cancelled {
            return Update(title: title, step: L10n.tr("Stopped. The device keeps what it took, and the next update goes on from there."),
                          progress: nil, fraction: nil, isRunning: false, failed: true)
        }
        if let failure = run.failure {
            return Update(title: title, step: L10n.format("{} failed: {}", Self.stepName(failure.step), failure.message),
                          progress: nil, fraction: nil, isRunning: false, failed: true)
        }
        if case .reconnecting(let p) = run.step {
            return Update(title: title, step: run.step.words,
                          progress: L10n.format("{} of {}", Formats.bytes(p.done), Formats.bytes(p.total)),
                          fraction: p.total > 0 ? Double(p.done) / Double(p.total) : nil, isRunning: true, failed: false)
        }
        guard case .uploading(let p) = run.step, !p.preparing else {
            // Before the first part nothing is sent yet; after the upload the whole image is there.
            let sent: Double? = if case .uploading = run.step { nil } else { 1 }
            return Update(title: title, step: run.step.words, progress: nil, fraction: sent, isRunning: run.isRunning, failed: false)
        }
        var parts = [L10n.format("{} of {}", Formats.bytes(p.done), Formats.bytes(p.total))]
        if let speed = run.bytesPerSecond, speed > 0 {
            parts.append(L10n.format("{}/s", Formats.bytes(Int(speed))))
            let left = Int((Double(p.total - p.done) / speed).rounded(.up))
            parts.append(L10n.plural("{} second left", "{} seconds left", left, Formats.number(left)))
        }
        return Update(title: title, step: run.step.words, progress: parts.joined(separator: " · "),
                      fraction: p.total > 0 ? Double(p.done) / Double(p.total) : nil, isRunning: true, failed: false)
    }

    /// A step's name, for the words of its failure.
    static func stepName(_ step: FirmwareUpdate.Step) -> String {
        switch step {
        case .uploading, .reconnecting: return L10n.tr("Sending the image")
        case .marking: return L10n.tr("Marking the image")
        case .restarting: return L10n.tr("Restarting the device")
        case .waiting: return L10n.tr("Waiting for the device")
        case .confirming: return L10n.tr("Confirming the image")
        case .done: return L10n.tr("The update")
        }
    }
}
