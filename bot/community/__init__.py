"""What outlives a table in a group: each player's records and achievements counted from the
stored hand records (`player_records`), kept current as hands finish (`record_book`)."""
