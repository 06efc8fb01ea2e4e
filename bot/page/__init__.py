"""The host's side of the web table: one seat's view of a table as the page draws it and its
answer to a move tried on the page (`seat_view`), and a finished hand stepped through with
every hand shown (`replay`). Plain JSON values; `adapters/web` serves them."""
