// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Update Firmware on the page: the run from the file chosen to its end, its progress told at
/// most ten times a second, Cancel, and the device found again after its restart.
extension DeviceManager {
    /// Starts Update Firmware with the file's images, each read and checked.
    public func startUpdate(_ images: [UpdateImage], fileName: String, mode: FirmwareUpdate.Mode) {
        guard !images.isEmpty, update?.isRunning != true, action == nil, phase == .ready else { return }
        let device = self.device
        note = nil
        restartedAt = nil
        let total = images.reduce(0) { $0 + $1.bytes.count }
        update = UpdateRun(fileName: fileName, images: images, mode: mode,
                           step: .uploading(TransferProgress(done: 0, total: total, preparing: true)))
        observers.notify()
        let (steps, stepped) = AsyncStream.makeStream(of: FirmwareUpdate.Step.self)
        let run = FirmwareUpdate(clock: clock, restartTime: restartTime) { [weak self] () async throws(SMPProblem) -> SMPClient in
            guard let self else { throw .cancelled }
            return try await self.comeBack(device)
        }
        updating = Task {
            let following = Task { for await step in steps { self.took(step) } }
            var failure: FirmwareUpdate.Failure?
            do throws(FirmwareUpdate.Failure) {
                try await run.run(images, mode: mode) { stepped.yield($0) }
            } catch {
                failure = error
            }
            stepped.finish()
            await following.value
            if update?.cancelled != true { update?.failure = failure }
            updating = nil
            observers.notify()
            // The page's own client lists the slots as they are now.
            switch route {
            case .bluetooth(_, let browser): if browser.device == device, browser.phase == .ready { refresh() }
            case .network: refresh()
            }
        }
    }

    /// Stops the update: the transfer ends where it is, and the device keeps what it took.
    public func cancelUpdate() {
        guard update?.isRunning == true else { return }
        update?.cancelled = true
        updating?.cancel()
        closeTransports()
        observers.notify()
    }

    /// Forgets a finished or failed update, so the section shows the slots alone.
    public func dismissUpdate() {
        guard update?.isRunning != true else { return }
        update = nil
        observers.notify()
    }

    private func took(_ step: FirmwareUpdate.Step) {
        guard var run = update, !run.cancelled else { return }
        if case .uploading(let progress) = step, !progress.preparing {
            let time = now()
            if let since = run.sendingSince {
                let seconds = time.timeIntervalSince(since)
                if seconds >= 0.5 { run.bytesPerSecond = Double(progress.done - run.sentBefore) / seconds }
            } else {
                run.sendingSince = time
                run.sentBefore = progress.done
            }
        }
        if step == .restarting {
            restartedAt = connections
            expectRestart()
        }
        // Only more of the same sending waits: its first part, where "Preparing the device…" ends, is told at once.
        let sendingStill = run.step.isSending && step.isSending
        run.step = step
        update = run
        if sendingStill, let shown = progressShown, now().timeIntervalSince(shown) < Self.progressInterval {
            // The latest progress is told when the interval ends; another step is told at once.
            progressPending = progressPending ?? Task { [weak self] in
                try? await Task.sleep(for: .seconds(Self.progressInterval))
                guard let self else { return }
                progressPending = nil
                progressShown = now()
                observers.notify()
            }
            return
        }
        progressPending?.cancel()
        progressPending = nil
        progressShown = now()
        observers.notify()
    }

    /// A client for the update: on the link as it is, or, after the restart, once the device
    /// is connected again (asked for here while it is not).
    private func comeBack(_ device: DeviceID?) async throws(SMPProblem) -> SMPClient {
        if Task.isCancelled || update?.cancelled == true { throw .cancelled }
        guard case .bluetooth(let sessions, let browser) = route, let device else { return try await open() }
        if let restartedAt, connections == restartedAt {
            throw .disconnected(L10n.tr("The device has not restarted yet."))
        }
        if browser.device == device, browser.phase == .ready { return try await open() }
        switch sessions.state {
        case .idle, .failed: sessions.connect(to: device)
        default: break
        }
        throw .disconnected(L10n.tr("The device is not connected yet."))
    }
}

private extension FirmwareUpdate.Step {
    /// Sending the image, past the device's preparing.
    var isSending: Bool {
        if case .uploading(let progress) = self { return !progress.preparing }
        return false
    }
}
