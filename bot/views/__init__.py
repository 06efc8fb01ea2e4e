"""What each person sees, before any platform's API: the table message, the private hands and
their buttons (`hand_views`, `controls`), one seat's view for the web table
(`web_seat_view`) and a stored hand stepped through (`web_replay`), the texts both games
share, and the neutral outgoing messages (`outgoing`) the adapters turn into calls."""
