// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Update Firmware as Nordic's Device Manager does it, one step after another: the image goes
/// up, is marked, the device restarts, comes back (the same device; `connect` finds it where it
/// is now), and, in Test and Confirm, the image is confirmed once it runs. Every wait is on the
/// injected clock, so tests drive it without waiting.
public struct FirmwareUpdate: Sendable {
    /// Nordic's modes (and the default).
    public enum Mode: String, Sendable, CaseIterable {
        /// Runs once after the restart; confirmed once it runs, else the device goes back.
        case testAndConfirm = "test-and-confirm"
        /// Runs from the restart on, unchecked.
        case confirmOnly = "confirm-only"
        /// Runs once after the next restart, which is the user's to make.
        case testOnly = "test-only"
    }

    /// Where the update is, in words the page shows.
    public enum Step: Equatable, Sendable {
        case uploading(TransferProgress)
        /// The link dropped during the upload: waiting for the device, to go on where it stopped.
        case reconnecting(TransferProgress)
        case marking
        case restarting
        case waiting
        case confirming
        /// Done: the version the device runs now, or will run at its next restart (Test Only).
        case done(version: String, running: Bool)

        public var words: String {
            switch self {
            case .uploading(let p) where p.preparing: return L10n.tr("Preparing the device…")
            case .uploading: return L10n.tr("Sending the image…")
            case .reconnecting: return L10n.tr("The connection dropped. Waiting for the device, to go on where it stopped…")
            case .marking: return L10n.tr("Marking the image to run…")
            case .restarting: return L10n.tr("Restarting the device…")
            case .waiting: return L10n.tr("Waiting for the device to come back…")
            case .confirming: return L10n.tr("Confirming the image…")
            case .done(let version, true): return L10n.format("Now running {}", version)
            case .done(let version, false): return L10n.format("{} runs after the next restart", version)
            }
        }
    }

    /// Which step failed, why, and what to do next, in words.
    public struct Failure: Error, Equatable, Sendable {
        public let step: Step
        public let message: String
    }

    /// Opens a client to the device (again, after a restart); throws while it cannot be reached.
    public let connect: @Sendable () async throws(SMPProblem) -> SMPClient
    public let clock: any Clock<Duration>
    /// How long the device may take to come back after its restart.
    public let restartTime: Duration

    public init(clock: any Clock<Duration> = ContinuousClock(), restartTime: Duration = .seconds(60),
                connect: @escaping @Sendable () async throws(SMPProblem) -> SMPClient) {
        self.clock = clock
        self.restartTime = restartTime
        self.connect = connect
    }

    /// Runs the update of `image` (the file's bytes) in `mode`; each step is told to `step` as it begins.
    public func run(_ bytes: [UInt8], image: MCUbootImage, mode: Mode = .testAndConfirm,
                    step: @escaping @Sendable (Step) -> Void) async throws(Failure) {
        try await run([UpdateImage(number: 0, bytes: bytes, image: image)], mode: mode, step: step)
    }

    /// Runs the update of each of `images` (an nRF5340's two cores, say) in `mode`: each goes up
    /// to its image number, each is marked, one restart runs them all.
    public func run(_ images: [UpdateImage], mode: Mode = .testAndConfirm,
                    step: @escaping @Sendable (Step) -> Void) async throws(Failure) {
        func fail(_ at: Step, _ problem: SMPProblem, _ next: String) -> Failure {
            Failure(step: at, message: L10n.format("{} {}", problem.message, next))
        }
        guard let main = images.first(where: { $0.number == 0 }) ?? images.first else { return }
        let total = images.reduce(0) { $0 + $1.bytes.count }
        var client: SMPClient
        do { client = try await connect() } catch {
            throw fail(.uploading(TransferProgress(done: 0, total: total, preparing: true)), error,
                       L10n.tr("Nothing was sent: connect to the device, then try again."))
        }
        var sent = 0
        for image in images {
            client = try await upload(image, on: client, before: sent, total: total, step: step)
            sent += image.bytes.count
        }
        step(.marking)
        // MCUboot's serial recovery takes no marks (MCUmgr's "not supported"): its bootloader
        // chooses what runs when it restarts (the newer image, in RAM-load or direct-XIP
        // modes), which the restart below then checks.
        var marked = true
        for image in images {
            do { _ = try await client.setImage(image.image.hash, confirm: mode == .confirmOnly) } catch {
                guard case .device(let refusal) = error, !refusal.groupCode, refusal.code == 8 else {
                    await client.close()
                    throw fail(.marking, error, L10n.tr("The image is on the device but will not run: try the update again."))
                }
                marked = false
            }
        }
        guard mode != .testOnly else {
            await client.close()
            return step(.done(version: main.image.version.description, running: false))
        }
        step(.restarting)
        // The device restarts as it answers; an answer lost with the link is no failure.
        _ = try? await client.reset()
        await client.close()
        step(.waiting)
        let back = try await comeBack(images)
        if mode == .testAndConfirm, marked {
            step(.confirming)
            for image in images {
                // Image 0 is the one running; another is named by its hash.
                do { _ = try await back.setImage(image.number == 0 ? nil : image.image.hash, confirm: true) } catch {
                    await back.close()
                    throw fail(.confirming, error, L10n.tr("The new image runs but is not confirmed: confirm it before the device restarts, or it goes back."))
                }
            }
        }
        await back.close()
        step(.done(version: main.image.version.description, running: true))
    }

    /// Links that may drop during an upload before it gives up.
    static let drops = 3

    /// Sends one image; where the link drops, waits for the device and goes on from the offset
    /// it took, a few times. Progress counts the `before` bytes of the images sent already.
    /// Returns the client the upload ended on.
    private func upload(_ image: UpdateImage, on first: SMPClient, before: Int, total: Int,
                        step: @escaping @Sendable (Step) -> Void) async throws(Failure) -> SMPClient {
        let reached = Reached()
        var client = first
        var drops = 0
        while true {
            do {
                let parameters = try await client.parameters()
                try await client.uploadImage(image.bytes, index: image.number, sha: nil, parameters: parameters,
                                             resumingAt: reached.done) { progress in
                    if !progress.preparing { reached.done = progress.done }
                    step(.uploading(TransferProgress(done: before + progress.done, total: total, preparing: progress.preparing)))
                }
                return client
            } catch {
                await client.close()
                let at = TransferProgress(done: before + reached.done, total: total, preparing: false)
                guard case .disconnected = error, drops < Self.drops else {
                    throw Failure(step: .uploading(at), message: L10n.format("{} {}", error.message,
                        L10n.tr("The image was not sent whole: try again, and the device goes on from where it stopped.")))
                }
                drops += 1
                step(.reconnecting(at))
                client = try await reconnect(at)
            }
        }
    }

    /// Reconnects to the device after a dropped link, a look a second for the restart time.
    private func reconnect(_ at: TransferProgress) async throws(Failure) -> SMPClient {
        var last: SMPProblem = .timedOut
        for _ in 0..<max(1, Int(restartTime / .seconds(1))) {
            do { try await clock.sleep(for: .seconds(1)) } catch { throw Failure(step: .reconnecting(at), message: SMPProblem.cancelled.message) }
            do { return try await connect() } catch .cancelled {
                throw Failure(step: .reconnecting(at), message: SMPProblem.cancelled.message)
            } catch {
                last = error
            }
        }
        throw Failure(step: .reconnecting(at), message: L10n.format("{} {}", last.message,
            L10n.tr("The device did not come back: check it is on and in reach, then update again; it goes on from where it stopped.")))
    }

    /// Reconnects until the device answers again, and checks it runs each new image.
    private func comeBack(_ images: [UpdateImage]) async throws(Failure) -> SMPClient {
        var last: SMPProblem = .timedOut
        // A look a second, until the restart time has passed.
        for _ in 0..<max(1, Int(restartTime / .seconds(1))) {
            // MCUboot swaps the image before the application starts: a first look comes too early.
            try? await clock.sleep(for: .seconds(1))
            do {
                let client = try await connect()
                let slots = try await client.images()
                for image in images {
                    guard let running = slots.first(where: { $0.active && $0.image == image.number }),
                          running.hash != image.image.hash else { continue }
                    await client.close()
                    throw Failure(step: .waiting, message: L10n.format(
                        "The device came back running {}, not the new image: its bootloader did not take it. Check that the image was signed for this device.",
                        running.version))
                }
                return client
            } catch let failure as Failure {
                throw failure
            } catch let problem as SMPProblem {
                last = problem
            } catch {
                last = .unexpected("\(error)")
            }
        }
        throw Failure(step: .waiting, message: L10n.format("{} {}", last.message,
                                                             L10n.tr("The device did not come back after its restart: check it is on and in reach, then list its images.")))
    }
}

/// One image of an update, read and checked: the image number it goes to (0, the application;
/// an nRF5340's network core is 1), its bytes, and what its header says.
public struct UpdateImage: Equatable, Sendable {
    public let number: Int
    public let bytes: [UInt8]
    public let image: MCUbootImage

    public init(number: Int, bytes: [UInt8], image: MCUbootImage) {
        self.number = number
        self.bytes = bytes
        self.image = image
    }

    /// Each image `file` holds, checked as MCUboot will before any byte is sent: the file
    /// itself, or each image a package's manifest names, image 0 first. `inflate` unpacks a
    /// package's deflated member.
    public static func read(_ file: [UInt8], inflate: ([UInt8], Int) -> [UInt8]?) throws(FirmwareFileProblem) -> [UpdateImage] {
        let members: [FirmwarePackage.Member]
        do throws(FirmwarePackageProblem) { members = try FirmwarePackage.images(in: file, inflate: inflate) } catch {
            throw .package(error)
        }
        return try members.map { member throws(FirmwareFileProblem) in
            do throws(MCUbootImageProblem) {
                return UpdateImage(number: member.number, bytes: member.bytes, image: try MCUbootImage.read(member.bytes))
            } catch {
                throw .image(member: members.count > 1 ? member.name : nil, error)
            }
        }
    }
}

/// Why a firmware file cannot be sent: the package, or one of its images.
public enum FirmwareFileProblem: Error, Sendable {
    case package(FirmwarePackageProblem)
    /// An image that does not read; `member` names it in a package of several.
    case image(member: String?, MCUbootImageProblem)
}

/// How far the device took the image, as its answers said (written by the progress callback).
private final class Reached: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var done: Int {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
