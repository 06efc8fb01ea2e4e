"""The catalogues use the glossary's words (``docs/glossary.md``).

Every entry of ``bot/i18n/locales/*.po`` is checked, whoever added it: the Chinese
translations and the English shown (the ``en.po`` msgstr where set, else the msgid) may not hold
a word the glossary's "forbidden" block lists, and Chinese text may not put an ASCII ``,``,
``;`` or ``:`` between two Chinese characters, a space beside full-width punctuation, or a
number or Latin letter against a Chinese character (but in the glossary's ```joined list).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
LOCALES = ROOT / "bot" / "i18n" / "locales"
CATALOGUES = {"zh-Hans": "zh_Hans.po", "zh-Hant": "zh_Hant.po", "en": "en.po"}
SCOPES = {"zh": ("zh-Hans", "zh-Hant"), "zh-Hans": ("zh-Hans",), "zh-Hant": ("zh-Hant",),
          "en": ("en",)}  # fmt: skip

# A Chinese character or full-width mark on each side of an ASCII , ; or : (a space allowed).
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
ASCII_BETWEEN_CJK = re.compile(f"[{_CJK}] ?[,;:] ?[{_CJK}]")


@dataclass(frozen=True)
class Rule:
    languages: tuple[str, ...]
    forbidden: re.Pattern[str]
    shown: str  # the rule as written, for the failure message
    instead: str


def parse_rules(text: str) -> list[Rule]:
    """The rules of the first ```forbidden block of ``text``: ``language | forbidden | use``."""
    match = re.search(r"^```forbidden\n(.*?)^```", text, re.S | re.M)
    assert match, "docs/glossary.md has no ```forbidden block"
    rules = []
    for line in match.group(1).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        language, forbidden, instead = (part.strip() for part in line.split(" | ", 2))
        assert language in SCOPES, f"unknown language in the glossary rule {line!r}"
        pattern = forbidden[3:] if forbidden.startswith("re:") else re.escape(forbidden)
        rules.append(Rule(SCOPES[language], re.compile(pattern), forbidden, instead))
    return rules


def texts(language: str, path: Path) -> list[tuple[str, str]]:
    """(msgid, text) for every entry: every translated form, or for English the text shown."""
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    out: list[tuple[str, str]] = []
    for message in catalogue:
        if not message.id:
            continue
        ids: tuple[str, ...] = (
            tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)
        )
        raw = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        strings = tuple(s or "" for s in raw)
        if language == "en":
            shown = [s if s else ids[min(i, len(ids) - 1)] for i, s in enumerate(strings)]
            # an id with no msgstr at all still shows its id (and its plural)
            shown += [i for i in ids if not any(strings)]
        else:
            shown = [s for s in strings if s]
        out += [(ids[0], s) for s in dict.fromkeys(shown)]
    return out


def problems(language: str, entries: list[tuple[str, str]], rules: list[Rule]) -> list[str]:
    found = []
    for msgid, text in entries:
        for rule in rules:
            if language in rule.languages and rule.forbidden.search(text):
                found.append(
                    f"{language} {msgid!r}: {text!r} uses {rule.shown!r} (use {rule.instead})"
                )
        if language != "en" and ASCII_BETWEEN_CJK.search(text):
            found.append(
                f"{language} {msgid!r}: {text!r} has ASCII punctuation between "
                "Chinese words (use ，；：)"
            )
    return found


RULES = parse_rules(GLOSSARY.read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", list(CATALOGUES))
def test_the_catalogue_uses_the_glossary_words(language: str) -> None:
    entries = texts(language, LOCALES / CATALOGUES[language])
    assert len(entries) > 100  # the catalogue was read
    found = problems(language, entries, RULES)
    assert not found, "\n".join(found)


def test_the_glossary_has_rules_for_every_language() -> None:
    covered = {language for rule in RULES for language in rule.languages}
    assert covered == set(CATALOGUES)


BAD_HANS = [
    ("'四团 · hand {number}'", "四团 · 第 {number} 手"),
    ("'Hand over.'", "本手结束。"),
    ("'2游'", "2游"),
    ("'4游'", "4游"),
    ("'Presets: {choices}.'", "可选的规则组：{choices}。"),
    ("'Team {team} wins ({how}): A {a}, B {b}.'", "B 队获胜（算分）：A 120，B 210。"),
    ("'Only the host or an admin of this chat can do that.'", "只有桌主可以这样做。"),
    ("'The match is over.'", "比赛结束。"),
    ("'Last trick'", "上一墩：{plays}"),
    ("'comma'", "大王,小王"),
    ("'semicolon'", "出了点问题; 请再试一次"),
    ("'zero'", "你只有 0 张 K"),
]
GOOD_HANS = [
    ("'hand'", "四团 · 第 {number} 局"),
    ("'your hand'", "你的手牌（{game}，{seat} 号座位）：{cards}"),
    ("'ascii around numbers'", "得分：A 队 {a} · B 队 {b}，例如 /play 7777, 10 10"),
    ("'places'", "上游、二游、三游、下游"),
    ("'no trump'", "定主：/trump S、H、C、D 或 none（无主）"),
]


@pytest.mark.parametrize(("msgid", "text"), BAD_HANS)
def test_the_check_catches_a_planted_bad_string(msgid: str, text: str) -> None:
    assert problems("zh-Hans", [(msgid, text)], RULES)


@pytest.mark.parametrize(("msgid", "text"), GOOD_HANS)
def test_the_check_lets_the_right_words_through(msgid: str, text: str) -> None:
    assert problems("zh-Hans", [(msgid, text)], RULES) == []


def test_the_check_catches_simplified_characters_and_old_words_in_traditional() -> None:
    assert problems("zh-Hant", [("'x'", "莊家正在埋底，请等待。")], RULES)  # 请
    assert problems("zh-Hant", [("'x'", "可選的規則組")], RULES)
    assert problems("zh-Hant", [("'x'", "修改設置")], RULES)
    assert problems("zh-Hant", [("'x'", "莊家正在埋底，請等待。")], RULES) == []


def test_the_check_reads_english_as_shown(tmp_path: Path) -> None:
    po = tmp_path / "en.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "pair of {rank}"\nmsgstr ""\n\n'
        'msgid "four kings"\nmsgstr "four jokers"\n\n'
        'msgid "Last trick: {plays} → {name} wins {points}"\nmsgstr ""\n\n'
        'msgid "That is no combination: a single, a pair, three, or a bomb"\nmsgstr ""\n\n'
        'msgid "2游"\nmsgstr "2nd out"\n',
        encoding="utf-8",
    )
    flagged = {msgid for msgid, text in texts("en", po) if problems("en", [(msgid, text)], RULES)}
    assert flagged == {
        "pair of {rank}",
        "Last trick: {plays} → {name} wins {points}",
        "That is no combination: a single, a pair, three, or a bomb",
        "2游",
    }


CJK_TERM = re.compile(f"[{_CJK}]+")
"""A run of Chinese characters (or full-width marks) in an English string."""


def allowed_in_english(text: str) -> dict[str, bool]:
    """The glossary's ```english-allowed block: each word, and whether only /rules may
    use it."""
    match = re.search(r"^```english-allowed\n(.*?)^```", text, re.S | re.M)
    assert match, "docs/glossary.md has no ```english-allowed block"
    allowed = {}
    for line in match.group(1).splitlines():
        if line.strip():
            word, why = (part.strip() for part in line.split(" | ", 1))
            allowed[word] = why == "rules"
    return allowed


def chinese_in_english(entries: list[tuple[str, str]], allowed: dict[str, bool]) -> list[str]:
    found = []
    for msgid, text in entries:
        rules_text = msgid.startswith(("rules_", "tips_"))
        for term in CJK_TERM.findall(text):
            if term in allowed and (rules_text or not allowed[term]):
                continue
            if all(not "\u3000" <= c <= "\u303f" and not "\uff00" <= c <= "\uffef" for c in term):
                found.append(f"{msgid!r}: {text!r} says {term!r}")
    return found


ALLOWED = allowed_in_english(GLOSSARY.read_text(encoding="utf-8"))


def test_no_chinese_term_in_english_but_the_glossarys_allowed() -> None:
    """Issue 49 (h): English says auto-play, dun, double win…; a Chinese word stands in an
    English string only where the glossary allows it (托管, 墩, 双关 in /rules alone)."""
    entries = texts("en", LOCALES / CATALOGUES["en"])
    found = chinese_in_english(entries, ALLOWED)
    assert not found, "\n".join(found)


def test_the_english_check_catches_a_planted_term() -> None:
    assert chinese_in_english([("x", "You are on 托管 already.")], ALLOWED)
    assert chinese_in_english([("x", "dun (墩) 0")], ALLOWED)
    assert chinese_in_english([("rules_situan", "a dun (墩)")], ALLOWED) == []


_FULL_WIDTH = "，。：；？！（）“”「」、"
SPACE_BY_FULL_WIDTH = re.compile(f" [{_FULL_WIDTH}]|[{_FULL_WIDTH}] ")
LATIN_AGAINST_CHINESE = re.compile(r"[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]")
PLACEHOLDER_OR_COMMAND = re.compile(r"\{[^}]*\}|/[a-z_]+")


def joined_on_purpose(text: str) -> list[str]:
    match = re.search(r"^```joined\n(.*?)^```", text, re.S | re.M)
    assert match, "docs/glossary.md has no ```joined block"
    return match.group(1).split()


JOINED = joined_on_purpose(GLOSSARY.read_text(encoding="utf-8"))


def spacing_problems(entries: list[tuple[str, str]], joined: list[str]) -> list[str]:
    """Issue 49, item 7: Chinese spacing as the glossary's notes say."""
    found = []
    for msgid, text in entries:
        for line in text.split("\n"):
            if SPACE_BY_FULL_WIDTH.search(line):
                found.append(f"{msgid!r}: a space beside full-width punctuation: {line!r}")
            bare = PLACEHOLDER_OR_COMMAND.sub(" ", line)
            for term in joined:
                bare = bare.replace(term, " ")
            if LATIN_AGAINST_CHINESE.search(bare):
                found.append(
                    f"{msgid!r}: no space between Chinese and a number or letter: {line!r}"
                )
    return found


@pytest.mark.parametrize("language", ["zh-Hans", "zh-Hant"])
def test_chinese_spacing_follows_the_glossary(language: str) -> None:
    entries = texts(language, LOCALES / CATALOGUES[language])
    found = spacing_problems(entries, JOINED)
    assert not found, "\n".join(found)


def test_the_spacing_check_catches_planted_strings() -> None:
    assert spacing_problems([("x", "张数：Ann >11 （托管）")], JOINED)
    assert spacing_problems([("x", "第3局")], JOINED)
    assert spacing_problems([("x", "A队")], JOINED)
    assert spacing_problems([("x", "第 3 局，A 队（托管）：{name} 出 /play")], JOINED) == []
    assert spacing_problems([("x", "主7冲关")], JOINED) == []
