"""What the host says, before any platform's API: the neutral outgoing messages
(`outgoing`) the adapters turn into calls, the buttons of a private hand (`controls`), the
texts both games share (`shared_texts`: cards, amounts, seat numbers, the ledger) and
amounts as people read them (`amounts`). The games' fronts and the pictures build on these."""
