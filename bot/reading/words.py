"""The words players type instead of a command: ``出 2222``, ``不要``, ``叫分 100``… in a
private chat with the bot or in the console, where there is no one else to misread them.

Each word stands for the command it names (`bot.commands.registry`); what follows it is that
command's arguments, read as the command reads them (``4个2``, ``三个K`` are the 四团 front's
to read). Text that starts with no command word at all is taken as cards to play: in a
private chat with the bot there is nothing else it could mean, and a play that cannot be
read is refused with the forms that can.
"""

from __future__ import annotations

COMMAND_WORDS: dict[str, str] = {
    # 出牌 — play
    "出": "play", "出牌": "play", "打": "play", "play": "play",
    # a pass in play, and in the auction (二七王's /pass is a bid pass while it bids)
    "不要": "pass", "要不起": "pass", "过": "pass", "過": "pass", "pass": "pass",
    "不叫": "pass",
    # 叫分 — bid
    "叫": "bid", "叫分": "bid", "bid": "bid",
    # 定主 — name trump; 埋底 — bury
    "定主": "trump", "叫主": "trump", "trump": "trump",
    "埋": "bury", "埋底": "bury", "扣底": "bury", "bury": "bury",
    # the rest of a hand
    "托管": "auto", "託管": "auto", "亮牌": "show", "冲关": "bonus", "衝關": "bonus",
    "投降": "surrender", "手牌": "hand", "我的牌": "hand",
    # between hands and around
    "准备": "ready", "準備": "ready", "入座": "join", "加入": "join", "离座": "leave",
    "離座": "leave", "比分": "score", "积分": "score", "積分": "score", "规则": "rules",
    "規則": "rules", "帮助": "help", "幫助": "help", "设置": "settings", "設置": "settings",
}  # fmt: skip
"""Words that name a command, in both Chinese scripts and English, lower case."""


def command_words(text: str) -> tuple[str, tuple[str, ...]]:
    """``"叫分 100"`` → ("bid", ("100",)); ``"出 2222"`` → ("play", ("2222",)); ``"叫分100"``
    → ("bid", ("100",)) (a word joined to its argument); ``"666"`` → ("play", ("666",))."""
    words = text.split()
    first = words[0].lower()
    if first in COMMAND_WORDS:
        return COMMAND_WORDS[first], tuple(words[1:])
    if _a_command_name(first):  # ``ready``, ``hand``: a command typed without its slash
        return first, tuple(words[1:])
    for word in sorted(COMMAND_WORDS, key=len, reverse=True):  # 叫分100, 出2222
        if first.startswith(word) and not word.isascii():
            return COMMAND_WORDS[word], (first[len(word) :], *words[1:])
    return "play", tuple(words)


def _a_command_name(word: str) -> bool:
    """Latin letters that are not cards (``jjj``, ``qq``, ``lj`` are cards to play)."""
    letters = word.upper()
    cards = set(letters) <= set("JQKA") or letters in ("LJ", "BJ")
    return word.isascii() and word.isalpha() and not cards
