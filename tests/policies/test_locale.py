"""The Chinese catalogue is complete and its committed .mo is compiled from the committed .po."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES"


def _po_entries() -> list[tuple[str, str]]:
    """(msgid, first msgstr) of every entry but the header, "fuzzy" entries flagged by a leading '#, fuzzy'."""
    text = (LOCALE / "django.po").read_text(encoding="utf-8")
    entries = []
    for block in text.split("\n\n"):
        match = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        if not match:
            continue
        msgid = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))).replace('\\"', '"')
        found = re.search(r'^msgstr(?:\[0\])? ((?:".*"\n?)+)', block, re.M)
        msgstr = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', found.group(1))).replace('\\"', '"') if found else ""
        if msgid:
            assert "#, fuzzy" not in block, msgid
            entries.append((msgid, msgstr))
    return entries


def test_every_message_is_translated_and_compiled() -> None:
    entries = _po_entries()
    assert len(entries) > 100
    with (LOCALE / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, msgstr in entries:
        assert msgstr, f"untranslated: {msgid}"
        assert compiled.gettext(msgid) == msgstr or compiled.ngettext(msgid, msgid + "s", 1) == msgstr, msgid
