"""Languages: zh-Hans (default), zh-Hant and en, from gettext catalogues (``locales/*.po``).

The catalogues are standard PO files, compiled in memory with Babel when first used, so the
repository holds no binary ``.mo`` files. Message ids are English sentences with named
placeholders: ``t("zh-Hans", "It is {name}'s turn.", name="Ann")``.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("zh-Hans", "zh-Hant", "en")
DEFAULT_LANGUAGE = "zh-Hans"
_LOCALES = Path(__file__).parent / "locales"
_ALIASES = {
    "zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-hans": "zh-Hans", "zh-sg": "zh-Hans",
    "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-hant": "zh-Hant", "zh-mo": "zh-Hant",
    "en": "en", "en-us": "en", "en-gb": "en",
}  # fmt: skip


def normalize_language(code: str | None) -> str | None:
    """A platform or user language code (``zh-CN``, ``en-US``, ``zh_TW``) → ours, or None."""
    if not code:
        return None
    key = code.replace("_", "-").lower()
    return _ALIASES.get(key) or _ALIASES.get(key.split("-", 1)[0])


@cache
def _catalogue(language: str) -> gettext.NullTranslations:
    path = _LOCALES / f"{language.replace('-', '_')}.po"
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language.replace("-", "_"))
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def N_(message: str) -> str:
    """Marks a message id for extraction where it is passed around before translation."""
    return message


def t(language: str, message: str, /, **values: object) -> str:
    """``message`` in ``language``, with ``{placeholders}`` filled in."""
    text = _catalogue(language if language in LANGUAGES else DEFAULT_LANGUAGE).gettext(message)
    return text.format(**values) if values else text


def tn(language: str, singular: str, plural: str, count: int, /, **values: object) -> str:
    """The singular or plural message for ``count`` (``ngettext``), with ``count`` and the
    other ``{placeholders}`` filled in."""
    catalogue = _catalogue(language if language in LANGUAGES else DEFAULT_LANGUAGE)
    return catalogue.ngettext(singular, plural, count).format(count=count, **values)


def plural_gaps(language: str) -> list[str]:
    """Plural messages of the catalogue of ``language`` missing one of its plural forms."""
    path = _LOCALES / f"{language.replace('-', '_')}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    gaps = []
    for message in catalog:
        if isinstance(message.id, tuple):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            if len(forms) != catalog.num_plurals or not all(forms):
                gaps.append(message.id[0])
    return gaps


def missing_translations(language: str, messages: list[str]) -> list[str]:
    """Message ids the catalogue of ``language`` has no (non-empty) translation for."""
    path = _LOCALES / f"{language.replace('-', '_')}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    missing = []
    for message in messages:
        entry = catalog.get(message)
        if entry is None or not entry.string:
            missing.append(message)
    return missing
