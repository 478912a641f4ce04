"""Records of finished games: :mod:`.game_record` reads them (TOML), replays their tricks
card by card on the table state and scores them by the ISkO.

The submodules are imported by name; this package imports none of them.
"""
