"""Game records, replay, benchmarks and tournaments: what stands on both engines."""

from euphrates.games import GAMES, game_definition
from euphrates.match.records import GameRecord, replay

__all__ = ["GAMES", "GameRecord", "game_definition", "replay"]
