"""Worked examples of the game protocol (unlisted games: see ``docs/adding_a_game.md``)."""
