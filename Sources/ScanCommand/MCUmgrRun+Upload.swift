// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import DeviceLinks
import Domain
import Foundation
import Synchronization

/// image upload: the whole update as the app runs it, and the progress it says on standard error.
extension MCUmgrRun {
    /// image upload FILE [--mode test-and-confirm|confirm-only|test-only]: an MCUboot image, or a
    /// dfu_application.zip with an image for each core, read and checked before any byte is sent,
    /// then sent; each image is then marked to run once (test) or from now on (confirm).
    func upload(_ arguments: [String]) async throws(SMPProblem) {
        guard let path = arguments.first else { Self.usage("image upload needs an MCUboot image file or a dfu_application.zip") }
        var mode = "test-and-confirm"
        if let i = arguments.firstIndex(of: "--mode"), i + 1 < arguments.count { mode = arguments[i + 1] }
        guard ["test-and-confirm", "confirm-only", "test-only"].contains(mode) else {
            Self.usage("--mode takes test-and-confirm, confirm-only or test-only")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size else { Self.usage("“\(DeviceText.terminal(path))” could not be read") }
        if size > MCUbootImage.maximumFileSize { Self.usage(MCUbootImageProblem.tooLarge(size).message) }
        guard let data = FileManager.default.contents(atPath: path) else { Self.usage("“\(DeviceText.terminal(path))” could not be read") }
        let images: [UpdateImage]
        do throws(FirmwareFileProblem) { images = try UpdateImage.read(Array(data), inflate: Inflate.raw) } catch {
            switch error {
            case .package(let problem): Self.usage(problem.message)
            case .image(let member?, let problem): Self.usage("\(DeviceText.terminal(member)): \(problem.message)")
            case .image(nil, let problem): Self.usage(problem.message)
            }
        }
        for update in images {
            let number = images.count > 1 ? "image \(update.number): " : ""
            FileHandle.standardError.write(Data("favblue-scan: \(number)\(update.image.version), \(update.bytes.count) bytes, hash \(Hex.lower(update.image.hash ?? []))\n".utf8))
        }
        let bytes = images.reduce(0) { $0 + $1.bytes.count }
        // The whole update, as the app runs it: upload, mark, and in the two modes that restart
        // the device, restart, wait for it, confirm (Test and Confirm), and say what runs.
        let first = Once(client)
        let again = reconnect
        let update = FirmwareUpdate(restartTime: .seconds(60)) { () async throws(SMPProblem) -> SMPClient in
            if let client = first.take() { return client }
            guard let again else { throw .disconnected("the device cannot be reached again") }
            return try await again()
        }
        let clock = ContinuousClock()
        let started = clock.now
        let timing = Timing()
        do {
            let progress = Self.progress
            try await update.run(images, mode: FirmwareUpdate.Mode(rawValue: mode) ?? .testAndConfirm) { step in
                switch step {
                case .uploading(let p): progress(p)
                case .marking:
                    let took = started.duration(to: clock.now)
                    let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
                    timing.seconds = seconds
                    FileHandle.standardError.write(Data(String(format: "favblue-scan: sent %d bytes in %.3f s (%.1f kB/s)\n",
                                                               bytes, seconds, Double(bytes) / max(seconds, 1e-9) / 1000).utf8))
                    FileHandle.standardError.write(Data("favblue-scan: \(step.words)\n".utf8))
                default:
                    FileHandle.standardError.write(Data("favblue-scan: \(step.words)\n".utf8))
                }
            }
        } catch {
            Self.fail(error.step == .marking || error.step == .confirming ? .unexpected(error.message) : .disconnected(error.message),
                      refused: error.message.hasPrefix("The device refused"))
        }
        // What the device holds now, from the client the update ended on or a new one.
        let now: SMPClient
        do { now = try await (again?() ?? client) } catch { Self.fail(error) }
        let slots = try await now.images()
        let version = (images.first { $0.number == 0 } ?? images[0]).image.version
        let done = mode == "test-only" ? "\(version) runs after the next restart (reset)." : "Now running \(version)."
        say(done + "\n" + slots.map(ImageWords.line).joined(separator: "\n"), .array(slots.map { .init(ImageWords.json($0)) }))
        await now.close()
    }

    /// Progress on standard error for one transfer: a line as the device prepares, then one
    /// each tenth of the way (an answer comes for every part, hundreds of them).
    static var progress: @Sendable (TransferProgress) -> Void {
        let said = Mutex<Int?>(nil)
        return { p in
            guard p.total > 0 else { return }
            let tenth = p.preparing ? -1 : p.done * 10 / p.total
            let new = said.withLock { last in
                defer { last = tenth }
                return last != tenth
            }
            guard new else { return }
            let line = p.preparing ? "preparing the device…" : "\(p.done) of \(p.total) bytes (\(tenth * 10) %)"
            FileHandle.standardError.write(Data("favblue-scan: \(line)\n".utf8))
        }
    }
}
/// A value handed out once (the first client of an update), then nil.
private final class Once<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T?
    init(_ value: T) { self.value = value }
    func take() -> T? { lock.withLock { defer { value = nil }; return value } }
}

/// How long the upload took, written by the update's step callback.
private final class Timing: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Double?
    var seconds: Double? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
