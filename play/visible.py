"""What every name and chat line must be besides its own rules: seen as it is written.

Refused, after the guidance of Unicode's UTS #39 (security mechanisms) and UTS #55 (source code
spoofing): default-ignorable code points (drawn as nothing: Hangul fillers, zero-width
characters, variation selectors, the combining grapheme joiner...), blank fillers that are not
default-ignorable (the Braille blank), and piles of combining marks: a run of nonspacing or
enclosing marks (in NFD) is at most MAX_MARKS long, never repeats a mark, and sits on a
character (a letter or digit in a name). The `regex` library supplies the
Default_Ignorable_Code_Point property, which the standard `unicodedata` does not; the rest is
`unicodedata` and the small table below.
"""

from __future__ import annotations

import unicodedata

import regex

MAX_MARKS = 4  # UTS #39, 5.4: "more than 4 nonspacing marks" is suspicious
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
FILLERS = frozenset("\u2800")  # blank, yet neither a space nor default-ignorable
PRESENTATION = frozenset("\ufe0e\ufe0f")  # text or emoji style of the character before it
MARKS = ("Mn", "Me")
RULE = (
    f"no invisible or blank filler characters (such as U+3164), and at most {MAX_MARKS}"
    " accents on a character, none twice"
)


def hidden_problem(text: str, *, name: bool) -> str | None:
    """Why `text` (NFC) would not be seen as written (None: it is fine). In a chat line
    (`name` False) an emoji may carry its presentation selector (U+FE0F)."""
    previous = ""
    for char in text:
        if char in FILLERS or (
            IGNORABLE.match(char)
            and (name or char not in PRESENTATION or not previous or _is_mark(previous))
        ):
            return f"U+{ord(char):04X} is invisible or a blank filler: {RULE}."
        previous = char
    run: list[str] = []
    base = ""
    for char in unicodedata.normalize("NFD", text):
        if char in PRESENTATION:  # allowed by the loop above: not an accent
            continue
        if not _is_mark(char):
            base, run = char, []
            continue
        run.append(char)
        if not _carries_marks(base, name=name):
            return f"An accent (U+{ord(char):04X}) must sit on a character: {RULE}."
        if len(run) > MAX_MARKS or run.count(char) > 1:
            return f"Too many accents on one character: {RULE}."
    return None


def _is_mark(char: str) -> bool:
    return unicodedata.category(char) in MARKS


def _carries_marks(base: str, *, name: bool) -> bool:
    """Whether a mark may sit on `base`: a letter or digit in a name; any visible character
    in a chat line."""
    if not base:
        return False
    category = unicodedata.category(base)
    if name:
        return category[0] in "LN"
    return not base.isspace() and category[0] != "C"
