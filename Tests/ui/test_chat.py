# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Connect and chat on the real app against a real GATT peer: Bumble's chat
peripheral behind a virtual controller that FavBlue drives over H4/TCP."""

import os
import signal
import sqlite3
import re
import unittest

from harness import App, Atspi, retry_gtk_atspi_crash, iso, scratch
from peers import ROOT, ChatPeer

PEER = "Chat Peer"

ENGLISH = {
    "home": "Add New Devices", "details": f"Details for {PEER}", "connect": f"Connect to {PEER}",
    "open": f"Open chat with {PEER}", "bar": f"Connected to {iso(PEER)}", "disconnect": f"Disconnect from {PEER}",
    "message": "Message", "unread": r"(\d+) unread messages?", "none": "No unread messages", "back": "Back",
}
GERMAN = {
    "home": "Neue Geräte hinzufügen", "details": f"Details zu {PEER}", "connect": f"Mit {PEER} verbinden",
    "open": f"Chat mit {PEER} öffnen", "bar": f"Verbunden mit {iso(PEER)}", "disconnect": f"Verbindung mit {PEER} trennen",
    "message": "Nachricht", "unread": r"(\d+) ungelesene Nachricht(?:en)?", "none": "Keine ungelesenen Nachrichten",
    "back": "Zurück",
}

SKIP = ("Devices nearby", "Geräte in der Nähe", "Messages", "Nachrichten")


def unread(app, words):
    """The count the Open Chat button's description gives (0 for none)."""
    node = app.find(words["open"], "button", skip=SKIP)
    # The client library caches what it read once; the badge changes under it.
    node.clear_cache()
    text = node.get_description()
    if text == words["none"]:
        return 0
    match = re.fullmatch(words["unread"], text)
    assert match, f"unexpected badge description {text!r}"
    return int(match.group(1))


def without_applications():
    """A data folder like /usr/share but for its applications: what GIO finds there has no
    handler for help: or for web pages."""
    folder = scratch("favblue-no-apps-")
    for entry in os.listdir("/usr/share"):
        if entry != "applications":
            os.symlink(os.path.join("/usr/share", entry), os.path.join(folder, entry))
    return folder


@retry_gtk_atspi_crash
class ChatTests(unittest.TestCase):
    def chat(self, lang, words):
        with ChatPeer("--service", "chat", "--every", "2") as peer, App("--source", peer.source, lang=lang) as app:
            app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
            app.press(words["home"])
            app.wait_for(lambda: PEER in app.names("label"), timeout=30, what="the peer in the scanner")

            # 1. Connect from the detail page.
            app.press(words["details"])
            app.wait_for(lambda: words["connect"] in app.names("button"), what="Connect on the detail page")
            app.press(words["connect"])
            peer.wait_for("SUBSCRIBED", timeout=20)
            app.wait_for(lambda: words["open"] in app.names("button"), what="Open Chat once connected")

            # 2. Back on the Scanner, the connection bar names the device.
            app.press(words["back"])
            app.wait_for(lambda: words["bar"] in app.names("label", skip=SKIP), what="the connection bar")

            # 3. The chat opens with the entry focused; "hello" goes out and its echo comes back.
            app.press(words["open"], skip=SKIP)
            app.wait_for(lambda: words["message"] in app.names("text"), what="the chat page")
            self.assertEqual(app.focused(), ("text", words["message"]), "the entry has focus")
            app.type_text("hello")
            app.key("Return")
            self.assertIn("hello", peer.wait_for("RX chat"))
            app.wait_for(lambda: "echo: hello" in app.names("label", skip=("Devices nearby",)), what="the echo")

            # 4. Elsewhere, the peer's messages count on the badge.
            app.press(words["back"])
            # The peer's ticks may land several at once, so wait for a count that two bursts reach.
            app.wait_for(lambda: unread(app, words) >= 4, timeout=30, what="unread messages on the badge")
            before = unread(app, words)

            # 5. Opening the chat clears the count.
            app.press(words["open"], skip=SKIP)
            app.wait_for(lambda: words["message"] in app.names("text"), what="the chat page again")
            sent_before = peer.count("SENT")
            app.press(words["back"])
            now = unread(app, words)
            # Only what the peer sent after the chat was left may count (one may have been on its way).
            self.assertLessEqual(now, peer.count("SENT") - sent_before + 1, f"the badge restarted from 0: {peer.lines}")
            self.assertLess(now, before, "opening the chat cleared the badge")

            # 6. Disconnect: the peer sees it and the bar goes.
            app.press(words["disconnect"], skip=SKIP)
            peer.wait_for("DISCONNECTED", timeout=15)
            app.wait_for(lambda: words["bar"] not in app.names("label", skip=SKIP), what="the bar to go")

    def test_connect_chat_badge_and_disconnect(self):
        self.chat(None, ENGLISH)

    def test_after_connect_the_focus_stays_and_an_unread_reply_outlives_disconnect(self):
        """Enter on Connect leaves the focus on Open Chat and the page says Connected; a reply
        left unread when the user disconnects is said in a notice and read from Chat History,
        with no connection."""
        words = ENGLISH
        with ChatPeer("--service", "chat", "--every", "1") as peer, App("--source", peer.source) as app:
            app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
            app.press(words["home"])
            app.wait_for(lambda: PEER in app.names("label"), timeout=30, what="the peer in the scanner")
            app.press(words["details"])
            app.wait_for(lambda: words["connect"] in app.names("button"), what="Connect on the detail page")
            self.assertNotIn("Connected", app.names("label"))
            for _ in range(12):
                app.key("Tab")
                if app.focused() == ("push button", words["connect"]):
                    break
            self.assertEqual(app.focused(), ("push button", words["connect"]), "Tab reaches Connect")
            app.key("Return")
            peer.wait_for("SUBSCRIBED", timeout=20)
            app.wait_for(lambda: words["open"] in app.names("button"), what="Open Chat once connected")
            self.assertEqual(app.focused(), ("push button", words["open"]), "the focus moved on to Open Chat")
            self.assertIn("Connected", app.names("label"), "the page says where the connection stands")

            # A reply arrives while the Scanner shows; Disconnect (in words) ends the link.
            app.press(words["back"])
            app.wait_for(lambda: unread(app, words) >= 1, timeout=20, what="an unread reply")
            self.assertIn("Disconnect", [n for n in app.names("label", skip=SKIP)], "the bar's Disconnect says so in words")
            app.press(words["disconnect"], skip=SKIP)
            peer.wait_for("DISCONNECTED", timeout=15)
            notice = re.compile(rf"Disconnected from {iso(PEER)}\. \d+ messages? (is|are) unread\.")
            app.wait_for(lambda: any(notice.fullmatch(n) for n in app.names("label", skip=SKIP)),
                         what="the notice naming what is unread")

            # The detail page keeps the chat, and it opens disconnected with the replies in it.
            app.press(words["details"])
            app.wait_for(lambda: f"Chat history with {PEER}" in app.names("button"), what="Chat History")
            self.assertIn("Disconnected", app.names("label"))
            app.press(f"Chat history with {PEER}")
            app.wait_for(lambda: words["message"] in app.names("text"), what="the chat page")
            app.wait_for(lambda: any(": tick " in n for n in app.names(skip=("Devices nearby",))),
                         what="the peer's replies, read without connecting")

    def test_in_german(self):
        self.chat("de", GERMAN)

    def test_delivered_messages_stay_delivered_after_a_restart(self):
        """A line the device answered reads as sent after quitting and starting again, not as
        "Sending…": its delivery is stored when it changes."""
        home = scratch("favblue-ui-")
        with ChatPeer("--service", "chat") as peer:
            with App("--source", peer.source, storage="sqlite", home=home) as app:
                open_peer_chat(app, peer)
                app.type_text("kept line")
                app.key("Return")
                app.wait_for(lambda: "echo: kept line" in app.names("label", skip=("Devices nearby",)), what="the answer")
                app.key("ctrl+q")
                app.proc.wait(timeout=15)
            with App("--source", peer.source, storage="sqlite", home=home) as app:
                open_peer_chat(app, peer)
                app.wait_for(lambda: "echo: kept line" in app.names("label", skip=("Devices nearby",)),
                             what="the history after the restart")
                names = app.names(skip=("Devices nearby",))
                mine = [n for n in names if n.startswith("You, ") and n.endswith(": kept line")]
                self.assertEqual(len(mine), 1, f"the line sent before the restart is listed once: {names}")
                self.assertNotIn("Sending…", names, "nothing reads as still sending")
                self.assertFalse(any(n.endswith("Not sent") for n in names), "and nothing as not sent")

    def test_a_session_logging_out_loses_no_chat_message(self):
        """SIGTERM (a session logging out) quits as Ctrl+Q does: the lines just sent and their
        answers are in the database when the process has gone, and it exits cleanly."""
        home = scratch("favblue-ui-")
        lines = [f"line {n}" for n in range(5)]
        with ChatPeer("--service", "chat") as peer, App("--source", peer.source, storage="sqlite", home=home) as app:
            open_peer_chat(app, peer)
            for line in lines:
                app.type_text(line)
                app.key("Return")
            app.wait_for(lambda: f"echo: {lines[-1]}" in app.names("label", skip=("Devices nearby",)), what="the last answer")
            app.proc.send_signal(signal.SIGTERM)
            self.assertEqual(app.proc.wait(timeout=15), 0, "SIGTERM quits through the application, not by dying")
        bodies = stored_bodies(home)
        for line in lines:
            self.assertIn(line, bodies, "every line sent is stored")
            self.assertIn(f"echo: {line}", bodies, "and every answer")


DEMO = "FavBlue Demo Chat"


def connect_from_its_page(app, name, connected=lambda: True):
    """From the home page: the Scanner, the device's details, Connect, until Open Chat shows
    and `connected` holds."""
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: name in app.names("label"), timeout=30, what=f"{name} in the scanner")
    app.press(f"Details for {name}")
    app.wait_for(lambda: f"Connect to {name}" in app.names("button"), what="Connect")
    app.press(f"Connect to {name}")
    app.wait_for(connected, timeout=20, what="the connection, as the device sees it")
    app.wait_for(lambda: f"Open chat with {name}" in app.names("button"), what="Open Chat")


def open_peer_chat(app, peer):
    """The chat peer connected (it subscribed once more) and its chat open, the entry showing."""
    subscribed = peer.count("SUBSCRIBED")
    connect_from_its_page(app, PEER, lambda: peer.count("SUBSCRIBED") > subscribed)
    app.press(f"Open chat with {PEER}")
    app.wait_for(lambda: "Message" in app.names("text"), what="the chat page")


def open_demo_chat(app):
    connect_from_its_page(app, DEMO)


def stored_bodies(home):
    """Every message body in the user's database, oldest first."""
    db = sqlite3.connect(os.path.join(home, "xdg_data_home", "favblue", "favblue.sqlite"))
    bodies = [bytes(b).decode() for (b,) in db.execute("SELECT body FROM messages ORDER BY seq")]
    db.close()
    return bodies


@retry_gtk_atspi_crash
class DemoChatTests(unittest.TestCase):
    def test_the_demo_device_connects_and_answers(self):
        demo = DEMO
        with App("--source", "demo") as app:
            open_demo_chat(app)
            self.assertIn(f"Disconnect from {demo}", app.names("button"))
            # The services found, in the browser, as on a real device: in words, and with their
            # identifiers once Preferences asks for them.
            app.wait_for(lambda: "2 characteristics" in app.names("label"), what="the services found")
            self.assertIn("FavBlue Chat", app.names("label"))
            self.assertFalse([n for n in app.names("label") if "handles 0x" in n], "no handles by default")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="the Preferences window")
            app.press("Connections", role="page tab")
            app.wait_for(lambda: app.page_on_show() == "Connections", what="the Connections page")
            next(node for node, role, name in app.nodes()
                 if name == "Show Identifiers" and role in ("toggle button", "switch", "check box")).do_action(0)
            app.wait_for(lambda: "7E57C000-2C8F-4F3C-9F91-8577E1891234 · handles 0x000A–0x000F" in app.names("label"),
                         what="the identifiers")
            app.key("Escape")
            app.wait_for(lambda: "Preferences" not in app.frames(), what="Preferences closed")
            self.assertIn("Read All Values", app.names("button"))
            app.press(f"Open chat with {demo}")
            app.wait_for(lambda: "Message" in app.names("text"), what="the chat page")
            app.type_text("hi there")
            app.key("Return")
            app.wait_for(lambda: "You said: hi there" in app.names("label", skip=("Devices nearby",)), what="the answer")
            # Up brings back the line sent last (GTK 4.8 gives no entry text over AT-SPI, so send it again).
            app.key("Up")
            app.key("Return")
            app.wait_for(lambda: app.names("label", skip=("Devices nearby",)).count("You said: hi there") == 2,
                         what="the recalled line answered again")

    def test_the_chat_page_tabs_through_named_controls_and_send_waits_for_words(self):
        with App("--source", "demo") as app:
            open_demo_chat(app)
            app.press(f"Open chat with {DEMO}")
            app.wait_for(lambda: "Message" in app.names("text"), what="the chat page")
            self.assertIn("Main Menu", app.names("button"), "the chat page has the main menu, as every page does")
            self.assertFalse(app.is_sensitive("Send"), "Send is inactive with nothing to send")
            stops = [app.focused()]
            for _ in range(6):
                stops.append(app.tab(before=stops[-1]))
            self.assertFalse([stop for stop in stops if not stop or not stop[1]], f"every Tab stop is named: {stops}")
            self.assertNotIn("scroll pane", [role for role, _ in stops], "the empty history is no Tab stop")
            while stops[-1] != ("text", "Message") and len(stops) < 12:
                stops.append(app.tab(before=stops[-1]))
            app.type_text("hi")
            app.wait_for(lambda: app.is_sensitive("Send"), what="Send once there are words")

    def test_the_messages_are_one_tab_stop_with_the_arrows_inside_each_named(self):
        """A chat of a few lines: Shift+Tab from the entry reaches one message, named as a screen
        reader says it; the arrows go from message to message (and to the day line, named);
        Tab then leaves the list at once."""
        with App("--source", "demo") as app:
            open_demo_chat(app)
            app.press(f"Open chat with {DEMO}")
            app.wait_for(lambda: "Message" in app.names("text"), what="the chat page")
            for line in ("one", "two"):
                app.type_text(line)
                app.key("Return")
            app.wait_for(lambda: "You said: two" in app.names("label", skip=("Devices nearby",)), what="the answers")
            def in_list(stop):
                return bool(stop) and (stop[1] == "Today" or stop[1].startswith("You, ") or stop[1].startswith(DEMO + ", "))
            stop = app.focused()
            for _ in range(6):
                stop = app.tab(shift=True, before=stop)
                if in_list(stop):
                    break
            self.assertTrue(in_list(stop), f"Shift+Tab reaches the messages, on a named item: {stop}")
            seen = [stop]
            for _ in range(6):
                app.key("Down")
                app.settle()
                now = app.focused()
                if now == seen[-1]:
                    break
                seen.append(now)
            self.assertGreater(len(seen), 3, f"the arrows go from message to message: {seen}")
            self.assertTrue(all(in_list(stop) for stop in seen), f"each one named as a screen reader says it: {seen}")
            self.assertTrue(any(name.startswith("You, ") and name.endswith(": one") for _, name in seen), seen)
            after = app.tab(before=seen[-1])
            self.assertFalse(in_list(after), f"Tab leaves the messages at once: {after}")

    def test_a_notice_floats_above_the_chat_entry_and_moves_nothing(self):
        """F1 on a computer without a help viewer says so in a notice: the entry the user types
        into stays where it was, with the focus, and the notice stands above it, not over it.
        The computer is made so: its data folders hold no applications, so neither Yelp nor a
        web browser is found, whatever the machine has installed (a GNOME desktop has Yelp)."""
        with App("--source", "demo", env={"XDG_DATA_DIRS": without_applications()}) as app:
            open_demo_chat(app)
            app.press(f"Open chat with {DEMO}")
            app.wait_for(lambda: app.focused() == ("text", "Message"), what="the entry, focused")
            entry = app.find("Message", "text").extents(Atspi.CoordType.WINDOW)
            app.key("F1")
            notice = "This computer has no help viewer"
            app.wait_for(lambda: any(n.startswith(notice) for n in app.names("label")), what="the notice")
            shown = next(node for node, role, name in app.nodes() if role == "label" and name.startswith(notice))
            box = shown.extents(Atspi.CoordType.WINDOW)
            after = app.find("Message", "text").extents(Atspi.CoordType.WINDOW)
            self.assertEqual((after.x, after.y, after.width, after.height), (entry.x, entry.y, entry.width, entry.height),
                             "the entry did not move")
            self.assertLessEqual(box.y + box.height, entry.y, "the notice is above the entry, not over it")
            self.assertEqual(app.focused(), ("text", "Message"), "the focus stays in the entry")

    def test_a_demo_device_that_cannot_connect_says_so_once_before_anyone_tries(self):
        with App("--source", "demo") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Details for Kitchen Speaker" in app.names("button"), timeout=30, what="a demo device")
            app.press("Details for Kitchen Speaker")
            app.wait_for(lambda: "Connect to Kitchen Speaker" in app.names("button"), what="Connect")
            self.assertFalse(app.is_sensitive("Connect to Kitchen Speaker"), "Connect is offered only where it can work")
            why = f"In the demo, only “{DEMO}” and “FavBlue Demo Board” can be connected."
            self.assertEqual(app.names("label").count(why), 1, "the reason is said once, on the page")

    def test_a_chat_in_the_demo_leaves_nothing_in_the_users_store(self):
        """The demo's chats stay in the demo, as its favorites do: a line sent and its answer are
        shown, and the user's database holds no message once the demo quits."""
        home = scratch("favblue-ui-")
        with App("--source", "demo", storage="sqlite", home=home) as app:
            open_demo_chat(app)
            app.press(f"Open chat with {DEMO}")
            app.wait_for(lambda: "Message" in app.names("text"), what="the chat page")
            app.type_text("demo line")
            app.key("Return")
            app.wait_for(lambda: "You said: demo line" in app.names("label", skip=("Devices nearby",)), what="the answer")
            app.key("ctrl+q")
            self.assertEqual(app.proc.wait(timeout=15), 0)
        self.assertEqual(stored_bodies(home), [], "no message of the demo's is in the user's store")

    def test_a_replayed_capture_cannot_connect_and_says_why(self):
        capture = os.path.join(ROOT, "Tests", "Fixtures", "captures", "android-legacy-adverts-govee.btsnoop")
        with App("--source", f"btsnoop:{capture}") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: any(n.startswith("Details for ") for n in app.names("button")), timeout=30, what="a device")
            app.press(next(n for n in app.names("button") if n.startswith("Details for ")))
            app.wait_for(lambda: "A replayed capture cannot connect to devices." in app.names("label"), what="the reason")
            connect = next(n for n in app.names("button") if n.startswith("Connect to "))
            self.assertFalse(app.is_sensitive(connect), "Connect is greyed out")


if __name__ == "__main__":
    unittest.main()
