"""How the platforms' adapters open the web table (`WebDoor`): a Telegram private hand's
Mini App button, the group table's direct Mini App link, Discord's signed "Open table" link.
Made at start from ``WEB_PUBLIC_URL`` and the web table's link signer; without them the
adapters show no such button and nothing else changes."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from adapters.web.auth import LINK_SECONDS, LinkSigner
from adapters.web.links import direct_link, mini_app_url, seat_link, table_param


@dataclass(frozen=True)
class WebDoor:
    base: str
    """The page's public HTTPS base (``WEB_PUBLIC_URL``)."""
    signer: LinkSigner
    mini_app: str = ""
    """The Mini App's short name registered with @BotFather (``TELEGRAM_MINI_APP``); empty:
    the group's link opens the bot's main Mini App (``t.me/<bot>?startapp=…``)."""
    link_seconds: float = LINK_SECONDS

    def signed_page(self, user: str, chat: str, seat: int | None) -> str:
        """``user``'s page at the table of ``chat``: ``seat``'s view, or (None) the public
        one; signed for that user alone, good for ``link_seconds``."""
        return seat_link(self.base, self.signer, user, chat, seat, self.link_seconds)

    def mini_app_page(self, chat: str) -> str | None:
        """The URL of a private ``WebAppInfo`` button (Telegram adds the user's initData)."""
        return mini_app_url(self.base, chat)

    def signed_page_of_table(self, path: str, user: str, chat: str, seat: int | None) -> str:
        """A page of the table of ``chat`` at ``path`` (``/replay?hand=3``) for ``user``: the
        link of their seat's view, or the public one, signed for them alone (after ``#``)."""
        token = self.signed_page(user, chat, seat).split("#", 1)[1]
        return f"{self.base.rstrip('/')}{path}#{token}"

    def page_of_table(self, path: str, chat: str) -> str | None:
        """A page of the table of ``chat`` at ``path`` (the bot's relative links, such as
        ``/replay?hand=3``) as a Mini App URL: Telegram adds the user's initData."""
        param = table_param(chat)
        if param is None:
            return None
        joiner = "&" if "?" in path else "?"
        return f"{self.base.rstrip('/')}{path}{joiner}t={param}"

    def group_link(self, bot_username: str, chat: str) -> str | None:
        """A link a group message may carry that opens the Mini App at the table of ``chat``
        (a group's inline keyboard may not hold a ``WebAppInfo`` button)."""
        if not bot_username:
            return None
        if self.mini_app:
            return direct_link(bot_username, self.mini_app, chat)
        param = table_param(chat)
        return None if param is None else f"https://t.me/{quote(bot_username)}?startapp={param}"
