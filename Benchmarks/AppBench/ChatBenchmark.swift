// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import ViewModels
import Views

/// For the chat benchmark (FAVBLUE_CHAT_BENCHMARK=N): stores N messages for one device
/// (once), opens its chat, times the first frame that shows them, then scrolls up through the
/// history for three seconds and measures the frame clock. Prints one "chat-benchmark {json}"
/// line to stderr and quits.
@MainActor
final class ChatBenchmark {
    private let messages: Int
    private let window: MainWindow
    private let chats: ChatRepository?
    private let quit: () -> Void
    private var paints: [Int64] = []
    private var scrolling = false
    private let device = try! DeviceID(parsing: "C0:FA:B1:BE:4C:01", kind: .leRandom)

    init?(environment: [String: String], window: MainWindow, chats: ChatRepository?, quit: @escaping () -> Void) {
        guard let text = environment["FAVBLUE_CHAT_BENCHMARK"], let messages = Int(text), messages > 0 else { return nil }
        self.messages = messages
        self.window = window
        self.chats = chats
        self.quit = quit
    }

    func start() {
        Task { @MainActor in
            await seed()
            open()
        }
    }

    /// Fills the store the first time; later runs reuse it (XDG_DATA_HOME decides).
    private func seed() async {
        guard let chats else { return }
        let have = (try? await chats.count(for: device)) ?? 0
        guard have < messages else { return }
        let start = Date().addingTimeInterval(-Double(messages) * 60)
        var batch: [ChatMessage] = []
        for i in have..<messages {
            let direction: ChatDirection = i % 3 == 0 ? .outgoing : .incoming
            let text = i % 7 == 0 ? "Message \(i): a longer line that wraps onto a second line in a window of ordinary width, as chats do"
                : "Message \(i)"
            batch.append(ChatMessage(device: device, direction: direction, body: .text(text),
                                     time: start.addingTimeInterval(Double(i) * 60), delivery: .sent))
            if batch.count == 1000 {
                try? await chats.append(batch)
                batch = []
            }
        }
        if !batch.isEmpty { try? await chats.append(batch) }
    }

    private func open() {
        let opened = MainLoop.monotonicMicroseconds
        var openMs: Double?
        window.window.onAfterPaint { [weak self] in
            guard let self else { return false }
            let now = MainLoop.monotonicMicroseconds
            if openMs == nil, let page = self.window.visiblePage as? ChatPage, page.hasLoaded {
                openMs = Double(now - opened) / 1000
                self.scroll(openMs: openMs!)
            }
            if self.scrolling { self.paints.append(now) }
            return true
        }
        window.showChat(with: device)
    }

    private func scroll(openMs: Double) {
        Task { @MainActor [weak self] in
            guard let self else { return }
            // Let the slide-in finish, then scroll up one wheel step per frame.
            try? await Task.sleep(nanoseconds: 500_000_000)
            self.scrolling = true
            let end = Date().addingTimeInterval(3)
            while Date() < end {
                (self.window.visiblePage as? ChatPage)?.scroll(by: -120)
                try? await Task.sleep(nanoseconds: 16_000_000)
            }
            self.scrolling = false
            self.finish(openMs: openMs)
        }
    }

    private func finish(openMs: Double) {
        let frames = FrameStats.intervalPercentiles(paints, [0.5, 0.95])
        let result: [String: Any] = [
            "messages": messages,
            "open_to_first_frame_ms": openMs,
            "scroll_frames": paints.count,
            "scroll_frame_interval_p50_ms": frames[0],
            "scroll_frame_interval_p95_ms": frames[1],
        ]
        FrameStats.report("chat-benchmark", result)
        quit()
    }
}
