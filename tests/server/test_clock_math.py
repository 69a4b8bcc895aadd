"""Clock arithmetic: banks, the time a turn adds, days per move, running out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from euphrates.server.common.clock import Clock, ClockSpec, realtime, turn_based

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_presets_are_bga_turns_with_a_bank_of_ten() -> None:
    assert (realtime("fast").bank, realtime("fast").increment) == (300, 30)
    assert (realtime("medium").bank, realtime("medium").increment) == (400, 40)
    assert (realtime("slow").bank, realtime("slow").increment) == (500, 50)
    assert realtime("fast", bank=60).bank == 60 and realtime("fast", bank=60).increment == 30


def test_the_bank_is_charged_and_the_increment_added_when_the_decision_leaves() -> None:
    clock = Clock.new(realtime(bank=100, increment=10), 2)
    clock.pass_to(0, True, at(0))
    assert clock.deadline == at(100)
    clock.pass_to(0, True, at(20))  # a second action of the same turn: still running
    assert clock.deadline == at(100) and clock.left(0, at(20)) == 80
    clock.pass_to(1, True, at(30))
    assert clock.remaining == [80, 100] and clock.deadline == at(130)
    clock.pass_to(0, True, at(130))  # seat 1 took all of it: nothing but the increment
    assert clock.remaining == [80, 10] and clock.deadline == at(210)


def test_a_defence_runs_on_the_defenders_clock() -> None:
    clock = Clock.new(realtime(bank=100, increment=0), 2)
    clock.pass_to(0, True, at(0))
    clock.pass_to(1, True, at(5))  # seat 1 must answer a conflict
    clock.pass_to(0, True, at(45))
    assert clock.remaining == [95, 60]


def test_out_of_time_a_seat_may_still_move_and_a_bot_may_stand_in() -> None:
    clock = Clock.new(realtime(bank=10, increment=5), 2)
    clock.pass_to(0, True, at(0))
    assert clock.time_out(at(10)) == ("out", 0)
    assert clock.out_of_time(0) and clock.deadline is None and clock.remaining[0] == 0
    assert clock.forfeit == [at(70), None]  # unless its player is back in the grace
    clock.stand_in(0, "beginner", at(12))
    assert clock.seat is None and not clock.out_of_time(0)
    clock.pass_to(0, True, at(13))  # a bot plays for it: no clock runs
    assert clock.seat is None
    clock.come_back(0, 0, at(20))
    assert clock.standin == [None, None] and clock.seat == 0 and clock.deadline == at(25)


def test_days_per_move_restart_for_each_decision() -> None:
    day = 100.0
    clock = Clock.new(turn_based(2, day), 2)
    clock.pass_to(0, True, at(0))
    assert clock.deadline == at(200)
    clock.pass_to(1, True, at(150))
    assert clock.deadline == at(350) and clock.remaining[1] == 200
    clock.pass_to(0, True, at(160))
    assert clock.deadline == at(360)
    with pytest.raises(ValueError):
        turn_based(4, day)


def test_a_turn_based_deadline_hands_the_rest_of_the_turn_to_a_bot() -> None:
    clock = Clock.new(turn_based(1, 10.0, level="strong"), 2)
    clock.pass_to(0, True, at(0))
    assert clock.time_out(at(10)) == ("late", 0)
    assert clock.standin == ["strong", None] and clock.seat is None and clock.missed == [1, 0]
    clock.pass_to(0, True, at(11))  # the bot's first action: still seat 0's turn
    assert clock.standin == ["strong", None] and clock.seat is None
    clock.pass_to(1, True, at(12))
    assert clock.standin == [None, None] and clock.seat == 1 and clock.deadline == at(22)
    clock.pass_to(0, True, at(13))
    assert clock.deadline == at(23)


def test_a_real_time_deserter_is_due_for_forfeit_after_the_grace() -> None:
    """docs/fair-play.md: out of time, then `grace` seconds without a move of its own:
    the seat is forfeited; a move of its own in the grace keeps it."""
    clock = Clock.new(realtime(bank=10, increment=5, grace=30), 2)
    clock.pass_to(0, True, at(0))
    assert clock.time_out(at(10)) == ("out", 0)
    assert clock.next_due() == at(40)
    assert clock.time_out(at(39)) is None
    assert clock.time_out(at(40)) == ("forfeit", 0)
    assert clock.forfeit == [None, None] and clock.seat is None
    back = Clock.new(realtime(bank=10, increment=5, grace=30), 2)
    back.pass_to(0, True, at(0))
    back.time_out(at(10))
    back.pass_to(1, True, at(20), mover=0)  # its player moved in the grace
    assert back.forfeit == [None, None] and back.next_due() == at(30)


def test_a_turn_based_seat_is_forfeited_at_its_second_missed_deadline_in_a_row() -> None:
    clock = Clock.new(turn_based(1, 10.0, level="beginner"), 2)
    clock.pass_to(0, True, at(0))
    assert clock.time_out(at(10)) == ("late", 0)
    clock.pass_to(1, True, at(11))  # the bot played seat 0's turn: not a move of its own
    clock.pass_to(0, True, at(12))
    assert clock.missed == [1, 0]
    assert clock.time_out(at(22)) == ("forfeit", 0)
    assert clock.missed == [0, 0] and clock.seat is None
    kept = Clock.new(turn_based(1, 10.0), 2)
    kept.pass_to(0, True, at(0))
    kept.time_out(at(10))
    kept.pass_to(1, True, at(11))
    kept.pass_to(0, True, at(12), mover=1)
    kept.pass_to(1, True, at(13), mover=0)  # a move of its own: the count starts afresh
    assert kept.missed == [0, 0]


def test_a_clock_stops_for_bots_and_at_the_end() -> None:
    clock = Clock.new(realtime(bank=50, increment=0), 2)
    clock.pass_to(0, True, at(0))
    clock.pass_to(1, False, at(10))  # seat 1 is a bot
    assert clock.seat is None and clock.remaining[0] == 40
    clock.pass_to(None, True, at(20))
    assert clock.seat is None and clock.deadline is None


def test_the_spec_round_trips_through_json() -> None:
    for spec in (realtime("medium"), turn_based(5, level="expert")):
        assert ClockSpec.from_json(spec.to_json()) == spec
    shown = Clock.new(realtime(bank=60), 3)
    shown.pass_to(2, True, at(0))
    doc = shown.to_json(at(15))
    assert doc["remaining_ms"] == [60000, 60000, 45000] and doc["seat"] == 2
