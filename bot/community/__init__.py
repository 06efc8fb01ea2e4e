"""What outlives a table in a group: each player's records and achievements counted from the
stored hand records (`player_records`, kept current by `record_book`), and being told when a
game starts (`notices`)."""
