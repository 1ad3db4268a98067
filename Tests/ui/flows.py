# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Steps several UI tests share, written once."""

import os

from harness import iso


def add_from_scanner(app, name, nickname):
    """Adds `name` through the heart and the dialog with `nickname`; waits for the filled heart."""
    app.press(f"Add {name} to favorites")
    app.wait_for(lambda: "Add to Favorites" in app.names(), what="the add dialog")
    # The dialog is in the accessibility tree before X maps its window; typed before, the
    # nickname went to the main window.
    app.wait_for(lambda: len(app.windows()) >= 2, what="the add dialog's window")
    buttons = app.names("button")
    assert "Add" in buttons and "Cancel" in buttons, f"the dialog offers Add and Cancel: {buttons}"
    app.type_text(nickname)
    app.key("Return")
    app.wait_for(lambda: f"Remove {nickname} from favorites" in app.names("button"), what="the filled heart")


def remove_from_scanner_after_checking_home(app, name, nickname):
    """From the Scanner: back to Favorites (the nickname is listed), into the Scanner
    again, and removes the favorite through the confirmation; waits for the outline heart."""
    app.press("Back")
    app.wait_for(lambda: nickname in app.names("label") and "Back" not in app.names("button"),
                 what="the favorite on the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: f"Remove {nickname} from favorites" in app.names("button"), timeout=20, what="the scanner again")
    app.press(f"Remove {nickname} from favorites")
    app.wait_for(lambda: f"Remove “{iso(nickname)}” from favorites?" in app.names(), what="the confirmation")
    app.press("Remove")
    app.wait_for(lambda: f"Add {name} to favorites" in app.names("button"), what="the outline heart")


def write_settings(home, **values):
    """GSettings for the next run, through the keyfile backend the harness selects."""
    folder = os.path.join(home, "xdg_config_home", "glib-2.0", "settings")
    os.makedirs(folder, exist_ok=True)
    lines = ["[io/github/favblue/FavBlue]"] + [f"{k.replace('_', '-')}={v}" for k, v in values.items()]
    with open(os.path.join(folder, "keyfile"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def turn_on_tracker_alerts(app):
    """Preferences → Trackers → Tracker Alerts on, then Preferences closed with Escape."""
    app.key("ctrl+comma")
    app.wait_for(lambda: "Preferences" in app.frames(), what="Preferences")
    app.press("Trackers", role="page tab")
    app.wait_for(lambda: app.page_on_show() == "Trackers", what="the Trackers page")
    app.find("Tracker Alerts", role="check box").do_action(0)  # how GTK 4.8 names a GtkSwitch
    app.wait_for(lambda: "Scan in the Background Too" in app.names("button"), what="the alerts on")
    app.key("Escape")
    app.wait_for(lambda: "Preferences" not in app.frames(), what="Preferences closed")
