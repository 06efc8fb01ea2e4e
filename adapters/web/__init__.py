"""The web table: one seat's view of a table, live, served by the bot's own HTTP server —
a Telegram Mini App, a signed link on Discord, a local page for the console's player.

`auth` checks who a page is (Telegram's ``initData``; the bot's own signed links), `links`
makes the links the adapters hand out, `pages` pushes each open page its seat's view after
every stored step, `server` holds the routes and `settings` reads the environment. The
page itself (HTML, CSS, JavaScript, no build step) is package data under ``static/``.
"""
