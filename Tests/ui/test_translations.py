# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Every user-visible string is in the template, and German is complete."""

import os
import re
import subprocess
import tempfile
import unittest

from harness import ROOT

PO = os.path.join(ROOT, "po")


def strip_volatile(text):
    """The template without its date and its "#:" source positions: positions move with
    every edit above a string, while what translators need (messages, contexts, plurals,
    comments) must match the sources exactly."""
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith('"POT-Creation-Date:') and not line.startswith("#:"))


class TranslationTests(unittest.TestCase):
    def test_template_matches_the_sources(self):
        with tempfile.TemporaryDirectory() as tmp:
            fresh = os.path.join(tmp, "favblue.pot")
            subprocess.run([os.path.join(ROOT, "meson-helpers", "update-po"), "--pot", fresh], check=True)
            with open(fresh, encoding="utf-8") as a, open(os.path.join(PO, "favblue.pot"), encoding="utf-8") as b:
                self.assertEqual(strip_volatile(a.read()), strip_volatile(b.read()),
                                 "po/favblue.pot is stale: run meson-helpers/update-po")

    def test_a_word_that_means_two_things_has_a_context_each(self):
        """"Scanning" titles a Preferences group and names a status; German needs "Scannen"
        for one and "Scannen läuft" for the other, so each carries its own msgctxt."""
        entries = {}
        with open(os.path.join(PO, "de.po"), encoding="utf-8") as f:
            for block in f.read().split("\n\n"):
                ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
                msgid = re.search(r'^msgid "(.*)"$', block, re.M)
                msgstr = re.search(r'^msgstr "(.*)"$', block, re.M)
                if msgid and msgstr:
                    entries.setdefault(msgid.group(1), {})[ctx.group(1) if ctx else None] = msgstr.group(1)
        self.assertEqual(entries.get("Scanning"), {"Preferences group": "Scannen", "Status": "Scannen läuft"})
        with open(os.path.join(PO, "favblue.pot"), encoding="utf-8") as f:
            template = f.read()
        self.assertEqual(len(re.findall(r'^msgctxt "(Preferences group|Status)"\nmsgid "Scanning"$', template, re.M)), 2)

    def test_german_names_the_advertisements_and_the_scanners_filters_with_two_words(self):
        """"Anzeigen" named both the advertisements of Act as a Device and the Scanner menu's
        Show section; a German menu that says one word for two things reads as one."""
        translations = {}
        with open(os.path.join(PO, "de.po"), encoding="utf-8") as f:
            for block in f.read().split("\n\n"):
                if block.startswith("#~"):
                    continue
                msgid = re.search(r'^msgid "(.*)"$', block, re.M)
                msgstr = re.search(r'^msgstr "(.*)"$', block, re.M)
                ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
                if msgid and msgstr:
                    translations[(ctx.group(1) if ctx else None, msgid.group(1))] = msgstr.group(1)
        advertisements = translations[(None, "Advertisements")]
        show = translations[("Scanner menu section: which devices are listed", "Show")]
        self.assertNotEqual(advertisements, show)
        self.assertEqual(show, "Filter")

    def test_potfiles_is_sorted_and_lists_every_file_with_strings(self):
        with open(os.path.join(PO, "POTFILES"), encoding="utf-8") as f:
            files = [line.strip() for line in f if line.strip() and not line.startswith("#")]
        self.assertEqual(files, sorted(files, key=lambda s: s.encode()), "POTFILES is sorted")
        pattern = re.compile(r"L10n\.(tr|ctx|format|plural)\(")
        for folder, _, names in os.walk(os.path.join(ROOT, "Sources")):
            for name in names:
                path = os.path.join(folder, name)
                if not name.endswith(".swift"):
                    continue
                with open(path, encoding="utf-8") as source:
                    if pattern.search(source.read()):
                        self.assertIn(os.path.relpath(path, ROOT), files)

    def test_every_language_is_complete_without_fuzzy_entries(self):
        with open(os.path.join(PO, "LINGUAS"), encoding="utf-8") as f:
            languages = [line.strip() for line in f if line.strip() and not line.startswith("#")]
        self.assertIn("de", languages)
        for lang in languages:
            po = os.path.join(PO, f"{lang}.po")
            stats = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, po],
                                   capture_output=True, text=True)
            self.assertEqual(stats.returncode, 0, stats.stderr)
            self.assertNotIn("fuzzy", stats.stderr, f"{lang}.po has fuzzy entries")
            self.assertNotIn("untranslated", stats.stderr, f"{lang}.po has untranslated entries")
            same = subprocess.run(["msgcmp", po, os.path.join(PO, "favblue.pot")], capture_output=True, text=True)
            self.assertEqual(same.returncode, 0, f"{lang}.po lacks messages of the template: {same.stderr}")

    def test_the_guide_is_translated_whole(self):
        """Every paragraph of every page in help/C has its German in help/de/de.po, none fuzzy."""
        with tempfile.TemporaryDirectory() as tmp:
            pot = os.path.join(tmp, "help.pot")
            pages = sorted(os.path.join(ROOT, "help", "C", p) for p in os.listdir(os.path.join(ROOT, "help", "C"))
                           if p.endswith(".page"))
            subprocess.run(["itstool", "-o", pot, *pages], check=True)
            po = os.path.join(ROOT, "help", "de", "de.po")
            stats = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, po], capture_output=True, text=True)
            self.assertEqual(stats.returncode, 0, stats.stderr)
            self.assertNotIn("fuzzy", stats.stderr)
            self.assertNotIn("untranslated", stats.stderr)
            same = subprocess.run(["msgcmp", po, pot], capture_output=True, text=True)
            self.assertEqual(same.returncode, 0, f"help/de/de.po lacks paragraphs of the guide: {same.stderr}")

    def test_german_declares_its_plural_forms(self):
        with open(os.path.join(PO, "de.po"), encoding="utf-8") as f:
            self.assertIn("Plural-Forms: nplurals=2; plural=(n != 1);", f.read())

    def test_installed_desktop_file_and_metainfo_are_translated(self):
        binary = os.environ.get("FAVBLUE_BIN")
        if not binary:
            self.skipTest("runs against an installed prefix (meson-helpers/test sets FAVBLUE_BIN)")
        share = os.path.join(os.path.dirname(os.path.dirname(binary)), "share")
        with open(os.path.join(share, "applications", "io.github.favblue.FavBlue.desktop"), encoding="utf-8") as f:
            self.assertIn("GenericName[de]=Bluetooth-Scanner", f.read())
        with open(os.path.join(share, "metainfo", "io.github.favblue.FavBlue.metainfo.xml"), encoding="utf-8") as f:
            self.assertIn('xml:lang="de"', f.read())


if __name__ == "__main__":
    unittest.main()
