"""The room's undo bookkeeping: which earlier states it keeps, and that an undo past
them (a replay from the start) gives exactly the state a kept one would have."""

from __future__ import annotations

import json
from typing import Any

import pytest

from euphrates.core import Rng
from euphrates.games import game_definition
from euphrates.server.game import roomstate as room_module
from euphrates.server.game.room import UNDO_DEPTH, Room
from euphrates.server.store.rows import GameRow, LogRow, SeatRow


def _room(game: str, players: int = 2, seed: int = 11) -> Room:
    seats = [SeatRow(s, "human", taken=True) for s in range(players)]
    row = GameRow("g", game, players, {}, seed, "active", "h", seats)
    definition = game_definition(game)
    store: Any = None  # replaying entries and undoing them never touch the store
    return Room(row, definition, definition.new_game(players, seed, {}), store)


def _everything(room: Room) -> str:
    """Every seat's view and the public one: equal exactly when the states are."""
    seats: list[int | None] = [*range(room.row.players), None]
    return json.dumps([room.state.view(s) for s in seats], sort_keys=True)


def _play(room: Room, rng: Rng) -> LogRow:
    d = room.state.decision()
    assert d is not None
    text = str(room.state.random_action(rng))
    entry = LogRow(room.version + 1, d.seat, "action", text)
    room._replay_entry(entry)
    return entry


def _undo(room: Room, seat: int | None) -> None:
    room._replay_entry(LogRow(room.version + 1, seat, "undo", None))


@pytest.mark.parametrize("game", ["board", "cards"])
def test_undo_from_a_kept_state_and_from_a_replay_agree(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For many seeded positions: undo the last action with its kept state, and again
    with that state forgotten (so the room replays); both give the state before it.
    Which way each undo went is seen from outside: a replay deals a new game."""
    definition = game_definition(game)
    deals: list[int] = []
    deal = definition.new_game

    def counted_deal(players: int, seed: int, options: Any = None) -> Any:
        deals.append(seed)
        return deal(players, seed, options)

    monkeypatch.setattr(definition, "new_game", counted_deal)
    checked = 0
    for seed in range(12):
        kept, forgot = _room(game, seed=seed), _room(game, seed=seed)
        rng_a, rng_b = Rng(seed), Rng(seed)
        for _ in range(40 + seed * 7):
            _play(kept, rng_a)
            _play(forgot, rng_b)
        before = _everything(kept)
        last = _play(kept, rng_a)
        _play(forgot, rng_b)
        if kept.played[-1].reveals:
            continue
        kept_state = kept.befores[last.version]
        forgot.befores.clear()
        deals.clear()
        _undo(kept, last.seat)
        assert deals == [], "an undo with the state kept dealt the game again"
        assert kept.state is kept_state
        _undo(forgot, last.seat)
        assert deals == [seed], "an undo with the state forgotten did not replay"
        assert _everything(kept) == before
        assert _everything(forgot) == before
        assert [p.text for p in kept.played] == [p.text for p in forgot.played]
        checked += 1
    assert checked >= 6


def test_kept_states_stop_at_a_reveal_and_at_another_seat() -> None:
    room = _room("board", seed=3)
    rng = Rng(3)
    for _ in range(300):
        if room.state.is_over():
            break
        _play(room, rng)
        last = room.played[-1]
        assert len(room.befores) <= UNDO_DEPTH
        if last.reveals:
            # Nothing before a draw can be taken back (G-3).
            assert not room.befores
        else:
            assert last.version in room.befores
        # Only the trailing run of one seat's actions keeps its states.
        run = []
        for p in reversed(room.played):
            if p.seat != last.seat or p.reveals:
                break
            run.append(p.version)
        assert set(room.befores) <= set(run)


def test_a_long_run_of_one_seat_keeps_only_the_last_few(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past UNDO_DEPTH the oldest kept state goes; undoing that far replays."""
    monkeypatch.setattr(room_module, "UNDO_DEPTH", 1)
    room = _room("board", seed=5)
    rng = Rng(5)
    first = _play(room, rng)
    while room.played[-1].reveals:
        first = _play(room, rng)
    snapshot = json.dumps([room.befores[first.version].view(s) for s in (0, 1, None)])
    # A second action of the same seat that reveals nothing (no events, no change):
    # the bookkeeping is what is tested, so the state may stay as it is.
    room._record_action(first.seat, "pass", [], room.state.copy())
    assert list(room.befores) == [room.version]
    _undo(room, first.seat)  # from its kept state
    assert first.version not in room.befores
    _undo(room, first.seat)  # the one whose state was let go: a replay
    assert json.dumps([room.state.view(s) for s in (0, 1, None)]) == snapshot


def _answered_chain(room: Room, rng: Rng) -> tuple[int, int]:
    """Play until one seat's action that revealed nothing is answered by another seat's
    action that revealed nothing either; returns (first seat, answering seat)."""
    for _ in range(2000):
        before = room.played[-1] if room.played else None
        _play(room, rng)
        last = room.played[-1]
        if (
            before is not None
            and before.seat != last.seat
            and not before.reveals
            and not last.reveals
            and not room.state.is_over()
        ):
            assert before.seat is not None and last.seat is not None
            return before.seat, last.seat
    raise AssertionError("no answered action in 2000 random actions")


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_taken_back_answer_still_counts_as_decided_since(game: str) -> None:
    """B decides, A answers, A takes the answer back: B has seen it, so B may not take
    its own action back (docs/server.md, Undo)."""
    room = _room(game, seed=4)
    first, answering = _answered_chain(room, Rng(4))
    assert room.undo_refusal(answering) is None
    _undo(room, answering)
    assert room.played[-1].seat == first
    assert room.undo_refusal(first) is not None


@pytest.mark.parametrize("game", ["board", "cards"])
def test_no_reader_sees_a_rated_game_end_before_its_record(game: str) -> None:
    """The move that ends a rated game waits for its verdict, read back from the store
    after the write. Meanwhile other requests are answered: each must find the state,
    its version and its record (the actions) agreeing, and the game not ended before
    its verdict. (A reader that found the final state with the record one action short
    took the game as ended without a result.)"""
    import asyncio

    rng = Rng(5)
    definition = game_definition(game)
    state = definition.new_game(2, 5, {})
    actions = []
    while not state.is_over():
        text = str(state.random_action(rng))
        state.apply(text)
        actions.append(text)
    seen: list[tuple[int, int, bool, str, str | None]] = []

    class Store:
        origin = "here"
        sqlite = True

        async def append(self, *_args: Any) -> bool:
            return True

        async def verdict(self, game_id: str) -> tuple[str, dict[int, tuple[int, int]]]:
            await asyncio.sleep(0)  # another request is answered here
            replay = definition.new_game(2, 5, {})
            for text in room.actions():
                replay.apply(text)
            seen.append(
                (
                    room.version,
                    len(room.actions()),
                    _everything(room) == _everything_of(replay, 2),
                    room.row.status,
                    room.row.verdict,
                )
            )
            return "counted", {0: (1500, 1516), 1: (1500, 1484)}

    class Host:
        store = Store()

        class drivers:
            @staticmethod
            def scripts(_row: Any) -> list[Any]:
                return []

        def followups(self, *_args: Any) -> tuple[Any, ...]:
            return ()

        def changed(self, *_args: Any) -> None:
            pass

    seats = [SeatRow(s, "human", taken=True) for s in range(2)]
    row = GameRow("g", game, 2, {}, 5, "active", "h", seats, rated=True)
    host: Any = Host()
    room = Room(row, definition, definition.new_game(2, 5, {}), host)
    for text in actions[:-1]:
        d = room.state.decision()
        assert d is not None
        room._replay_entry(LogRow(room.version + 1, d.seat, "action", text))
    d = room.state.decision()
    assert d is not None
    last = len(actions) - 1
    asyncio.run(room.submit(frozenset({d.seat}), d.seat, room.version, actions[-1]))
    assert seen == [(last, last, True, "active", None)]
    assert (room.version, room.row.status, room.row.verdict) == (last + 1, "over", "counted")
    assert room.actions() == actions and room.row.changes[0] == (1500, 1516)


def _everything_of(state: Any, players: int) -> str:
    seats: list[int | None] = [*range(players), None]
    return json.dumps([state.view(s) for s in seats], sort_keys=True)
