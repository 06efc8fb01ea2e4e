"""Pictures for the chat host: hands, tables and settlements drawn as PNG with Pillow.

Pure functions of plain values (`CardFace`, `HandPicture`, `TablePicture`,
`SettlementPicture`): nothing here knows the engine or a platform. Text arrives already in
the reader's language. A failure raises `PictureError`, and the caller sends text instead.

>>> from bot.pictures import HandPicture, faces, render_hand
>>> png = render_hand(HandPicture("as_held", "张三", faces("BJ LJ H7 S7 H2 HA HK"), ("二七王",)))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from bot.pictures.errors import PictureError
from bot.pictures.faces import (
    CardFace,
    HandPicture,
    Layout,
    Play,
    SettlementPicture,
    SettlementRow,
    TablePicture,
    faces,
)
from bot.pictures.render import (
    cache_info,
    clear_caches,
    render_async,
    render_hand,
    render_settlement,
    render_table,
)

__all__ = [
    "CardFace",
    "HandPicture",
    "Layout",
    "PictureError",
    "Play",
    "SettlementPicture",
    "SettlementRow",
    "TablePicture",
    "cache_info",
    "clear_caches",
    "faces",
    "render_async",
    "render_hand",
    "render_settlement",
    "render_table",
]
