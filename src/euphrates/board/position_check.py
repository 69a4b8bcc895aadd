"""Whether a state read from a position is one the rules can reach (RULINGS.md).

`position.from_position` reads the fields with their types and bounds; this module
checks what the fields say together: every tile, catastrophe and treasure accounted
for, tiles on their terrain, leaders beside temples, at most one leader of a colour
in a kingdom unless the pending conflict is about exactly that, the pending decision
the one the board calls for, and points equal to their scoring events. These are the
invariants the property tests check after every action of random games, so every
reachable state passes and an impossible one is refused with the field and the ruling,
before an engine could act on it (a hand of 2**63 tiles, a monument built from an
empty block, a revolt between leaders in two kingdoms).

Two facts of a reachable state are deliberately not required, so that tests and
puzzles can set up partial positions: full hands at the start of a turn (B-6) and
three or more treasures at the start of a turn (B-19). Neither lets an engine reach
an impossible state; docs/board.md says so.
"""

from __future__ import annotations

from typing import NoReturn

from euphrates.board.actions import MONUMENT_CODES, MONUMENTS
from euphrates.board.data import BoardData
from euphrates.board.geometry import NEIGHBOURS, flood, square_name, squares_of
from euphrates.board.kingdoms import kingdoms_of
from euphrates.board.monuments import block_mask, options
from euphrates.board.phases import (
    ACTION,
    CATASTROPHES_EACH,
    HAND_SIZE,
    MONUMENT,
    OVER,
    PHASE_NAMES,
    REVOLT,
    TILE_COUNTS,
    TREASURE,
    WAR,
    WAR_ORDER,
)
from euphrates.board.treasures import first_to_take, giving_kingdom
from euphrates.board.war import attacker_of
from euphrates.core.colours import BLUE, COLOUR_NAMES, LEADER_NAMES, RED
from euphrates.core.errors import RecordError

SCORE_REASONS = ("tile", "revolt", "war", "monument")
"""Why points are scored (docs/board.md, `scored` events): B-13, B-21, B-25, B-17."""


def _fail(what: str, ruling: str) -> NoReturn:
    raise RecordError(f"position: {what} ({ruling})")


def _first(mask: int) -> str:
    return square_name((mask & -mask).bit_length() - 1)


def check_position(st: BoardData, bordered: int | None = None) -> None:
    """Raise RecordError unless `st` is a state the rules can reach. `bordered`, when
    the document listed the bordered treasures, must be those of the map."""
    _check_board(st, bordered)
    _check_material(st)
    _check_leaders(st)
    _check_scores(st)
    _check_pending(st)
    _check_kingdoms(st)


# ---------------------------------------------------------------------- the board
def _check_board(st: BoardData, bordered: int | None) -> None:
    river, land = st.map.river, st.map.land
    seen = 0
    for c in range(4):
        tiles = st.tiles[c]
        name = COLOUR_NAMES[c]
        if tiles & seen:
            _fail(f"board.tiles.{name}: {_first(tiles & seen)} holds two tiles", "B-12")
        seen |= tiles
        wrong = tiles & (land if c == BLUE else river)
        if wrong:
            where = "land" if c == BLUE else "a river square"
            _fail(
                f"board.tiles.{name}: {_first(wrong)} is {where}; blue tiles lie only on "
                "the river and the others only on land",
                "B-12",
            )
    built: set[int] = set()
    flipped = 0
    red_blocks = 0
    for i, (m, top_left, colour) in enumerate(st.monuments):
        where = f"board.monuments[{i}]"
        if m in built:
            _fail(f"{where}: there is one {MONUMENT_CODES[m]} monument only", "B-1")
        built.add(m)
        if colour not in MONUMENTS[m]:
            _fail(
                f"{where}: a {MONUMENT_CODES[m]} monument is built on tiles of one of its "
                f"colours, not {COLOUR_NAMES[colour]}",
                "B-28",
            )
        block = block_mask(top_left)
        if block & (seen | flipped):
            _fail(f"{where}: its block shares {_first(block & (seen | flipped))}", "B-28")
        flipped |= block
        if colour == RED:
            red_blocks |= block
        wrong = block & (land if colour == BLUE else river)
        if wrong:
            _fail(
                f"{where}: its {COLOUR_NAMES[colour]} tiles cannot have lain on {_first(wrong)}",
                "B-12",
            )
    if st.catas & (seen | flipped):
        _fail(
            f"board.catastrophes: {_first(st.catas & (seen | flipped))} also holds a tile "
            "(a tile under a catastrophe leaves the game, and none falls on a monument)",
            "B-15, B-29",
        )
    treasures = st.treasures
    if treasures & ~st.map.temples:
        _fail(
            f"board.treasures: {_first(treasures & ~st.map.temples)} is not a temple square "
            f"of the {st.map.name} board; treasures never move",
            "B-2",
        )
    if treasures & ~(st.tiles[RED] | red_blocks):
        _fail(
            f"board.treasures: the treasure on {_first(treasures & ~(st.tiles[RED] | red_blocks))} "
            "lies on no temple and no red monument tile",
            "B-2, B-28",
        )
    if bordered is not None and bordered != treasures & st.map.bordered:
        _fail(
            "board.bordered_treasures must list the treasures on the map's bordered squares: "
            + (
                ", ".join(square_name(s) for s in squares_of(treasures & st.map.bordered)) or "none"
            ),
            "B-30",
        )
    uni = st.unification
    if uni >= 0 and not seen >> uni & 1:
        _fail(f"board.unification: {square_name(uni)} holds no face-up tile", "B-22")


def _check_material(st: BoardData) -> None:
    """Hand sizes, then conservation: the 153 tiles, the catastrophes and the treasures
    (B-1, B-2)."""
    for s, hand in enumerate(st.hands):
        if sum(hand) > HAND_SIZE:
            _fail(
                f"seats[{s}].hand holds {sum(hand)} tiles; a hand holds at most {HAND_SIZE}",
                "B-6, B-18",
            )
    for c in range(4):
        on_board = st.tiles[c].bit_count() + 4 * sum(1 for m in st.monuments if m[2] == c)
        hands = sum(h[c] for h in st.hands)
        discards = sum(d[c] for d in st.discarded)
        bag = st.bag.count(c)
        total = on_board + hands + discards + bag + st.removed[c]
        if total != TILE_COUNTS[c]:
            _fail(
                f"{total} {COLOUR_NAMES[c]} tiles are accounted for ({on_board} on the board, "
                f"{hands} in hands, {discards} discarded, {bag} in the bag, {st.removed[c]} "
                f"removed); the game has {TILE_COUNTS[c]}",
                "B-1",
            )
    used = st.catas.bit_count()
    if used + sum(st.catas_left) != CATASTROPHES_EACH * st.players:
        _fail(
            f"{used} catastrophes on the board and {sum(st.catas_left)} left in the seats; "
            f"{st.players} players have {CATASTROPHES_EACH * st.players}",
            "B-1",
        )
    temples = st.map.temples.bit_count()
    if st.treasures.bit_count() + sum(st.held) != temples:
        _fail(
            f"{st.treasures.bit_count()} treasures on the board and {sum(st.held)} held; the "
            f"{st.map.name} board has {temples}",
            "B-2, B-30",
        )


# ---------------------------------------------------------------------- leaders
def _check_leaders(st: BoardData) -> None:
    blocked = st.tiles[0] | st.tiles[1] | st.tiles[2] | st.tiles[3] | st.flipped | st.catas
    placed = 0
    for s, row in enumerate(st.leader_sq):
        for c, sq in enumerate(row):
            if sq < 0:
                continue
            where = f"seats[{s}].leaders.{LEADER_NAMES[c]}"
            b = 1 << sq
            if (placed | blocked) & b:
                _fail(f"{where}: {square_name(sq)} is not empty", "B-8")
            placed |= b
            if st.map.river & b:
                _fail(f"{where}: {square_name(sq)} is a river square; leaders stand on land", "B-8")
            if not NEIGHBOURS[sq] & st.tiles[RED]:
                _fail(f"{where}: {square_name(sq)} touches no temple", "B-8, B-10")


def _check_kingdoms(st: BoardData) -> None:
    """G-5: two leaders of a colour share a kingdom only while the conflict they started
    is pending: a revolt's two leaders, or the wars of the joined kingdom."""
    p = st.phase
    for kingdom in kingdoms_of(st.occupied, st.leader_bits):
        for c in range(4):
            seats = st.leaders_in(kingdom, c)
            if len(seats) < 2:
                continue
            if len(seats) == 2:
                pair = {st.attacker, st.defender}
                if p == REVOLT and c == st.conflict_colour and set(seats) == pair:
                    continue
                uni = st.unification
                if p in (WAR, WAR_ORDER) and c in st.wars and uni >= 0 and kingdom >> uni & 1:
                    continue
            _fail(
                f"the {LEADER_NAMES[c]}s of seats {', '.join(map(str, seats))} share a kingdom "
                "with no conflict pending between them",
                "G-5, B-11, B-22",
            )


# ---------------------------------------------------------------------- points
def _check_scores(st: BoardData) -> None:
    monument_colours = {c for m, _, _ in st.monuments for c in MONUMENTS[m]}
    sums = [[0, 0, 0, 0] for _ in range(st.players)]
    for i, (seat, colour, amount, reason) in enumerate(st.score_log):
        where = f"score_log[{i}]"
        if reason not in SCORE_REASONS:
            _fail(
                f"{where}: unknown reason {reason[:20]!r}; reasons are " + ", ".join(SCORE_REASONS),
                "B-13, B-17, B-21, B-25",
            )
        if reason == "war":
            if amount > 1 + TILE_COUNTS[colour]:
                _fail(f"{where}: a war scores 1 plus the tiles removed, not {amount}", "B-25")
        elif amount != 1:
            _fail(f"{where}: {reason} points come one at a time, not {amount}", "B-13, B-17, B-21")
        if reason == "revolt" and colour != RED:
            _fail(f"{where}: a revolt scores a red point", "B-21")
        if reason == "monument" and colour not in monument_colours:
            _fail(f"{where}: no monument built shows {COLOUR_NAMES[colour]}", "B-17")
        sums[seat][colour] += amount
    for s in range(st.players):
        if st.points[s] != sums[s]:
            _fail(
                f"seats[{s}].points must be the sum of that seat's score_log entries "
                f"({', '.join(f'{COLOUR_NAMES[c]} {sums[s][c]}' for c in range(4))})",
                "B-14",
            )


# ---------------------------------------------------------------------- the decision
def _check_pending(st: BoardData) -> None:
    p = st.phase
    name = PHASE_NAMES[p]
    if st.actions_done > (2 if p == OVER else 1):
        _fail("turn.actions_done is 2 only once the game has ended: the turn is over", "B-6")
    uni = st.unification
    if (uni >= 0) != (p in (WAR, WAR_ORDER)):
        _fail(
            "board.unification: the unification tile lies on the board during wars only",
            "B-22, B-27",
        )
    if p in (WAR, WAR_ORDER):
        if st.placed != uni:
            _fail("pending.placed must be the square of the unification tile", "B-22")
        _check_wars(st)
    if p in (REVOLT, WAR):
        _check_conflict(st)
    if p == MONUMENT:
        _check_monument(st)
    giving = giving_kingdom(st)
    if p == TREASURE:
        if giving is None:
            _fail("pending: a treasure choice, but no kingdom must give treasures", "B-30")
        owner, held = giving
        choices = first_to_take(st, held)
        if st.treasure_owner != owner:
            _fail(f"pending.owner must be seat {owner}, whose trader takes the treasures", "B-30")
        if st.treasure_choices != choices or held.bit_count() - 1 >= choices.bit_count():
            _fail(
                "pending.choices must be the treasures the owner may take now, when there is "
                "a real choice: " + ", ".join(square_name(s) for s in squares_of(choices)),
                "B-30, G-1",
            )
    elif p in (ACTION, OVER) and giving is not None:
        _fail(
            f"a kingdom with a trader holds the treasures {', '.join(map(square_name, squares_of(giving[1])))}"
            f" in phase {name}: they are handed out at the end of the action",
            "B-30",
        )
    if p == OVER and st.bag and st.treasures.bit_count() > 2:
        _fail(
            "pending.phase: the game ends only when the bag runs short or at most two "
            "treasures remain",
            "B-31",
        )


def _check_wars(st: BoardData) -> None:
    if len(set(st.wars)) != len(st.wars):
        _fail("pending.wars names a war twice", "G-5")
    if st.phase == WAR_ORDER and len(st.wars) < 2:
        _fail("pending.wars: the order is chosen only among two or more wars", "B-22, G-1")
    region = flood(1 << st.unification, st.occupied)
    at_war = [c for c in range(4) if len(st.leaders_in(region, c)) == 2]
    if st.wars != at_war:
        _fail(
            "pending.wars must be the colours with two leaders in the joined kingdom, in "
            "colour order: " + (", ".join(COLOUR_NAMES[c] for c in at_war) or "none"),
            "B-22, B-27",
        )


def _check_conflict(st: BoardData) -> None:
    c = st.conflict_colour
    leader = LEADER_NAMES[c]
    if st.attacker == st.defender:
        _fail("pending: a conflict is between two different players", "G-5")
    if st.att_sq < 0 or st.def_sq < 0:
        _fail(f"pending: both {leader}s of the conflict must be on the board", "B-20, B-24")
    temples = st.tiles[RED]
    if st.phase == REVOLT:
        if st.attacker != st.active:
            _fail("pending.attacker: the active player's leader moved in and attacks", "B-20")
        if not flood(1 << st.att_sq, st.occupied) >> st.def_sq & 1:
            _fail(f"pending: the two {leader}s of a revolt stand in one kingdom", "B-11")
        strengths = (
            (NEIGHBOURS[st.att_sq] & temples).bit_count(),
            (NEIGHBOURS[st.def_sq] & temples).bit_count(),
        )
        ruling = "B-20"
    else:
        if c not in st.wars:
            _fail(f"pending.colour: {COLOUR_NAMES[c]} is not among the wars", "B-22")
        region = flood(1 << st.unification, st.occupied)
        if sorted(st.leaders_in(region, c)) != sorted((st.attacker, st.defender)):
            _fail(
                f"pending: the attacker and the defender own the two {leader}s of the "
                "joined kingdom",
                "B-22",
            )
        sides = attacker_of(st, sorted((st.attacker, st.defender)))
        if sides != (st.attacker, st.defender):
            _fail(f"pending: seat {sides[0]} attacks in this war, seat {sides[1]} defends", "B-23")
        within = st.occupied & ~(1 << st.unification)
        att_side = flood(1 << st.att_sq, within)
        if att_side >> st.def_sq & 1:
            _fail(f"pending: the two {leader}s stand on the two sides of the joining tile", "B-24")
        tiles = st.tiles[c]
        strengths = (
            (att_side & tiles).bit_count(),
            (flood(1 << st.def_sq, within) & tiles).bit_count(),
        )
        ruling = "B-24"
    if (st.att_base, st.def_base) != strengths:
        _fail(
            "pending.attacker_strength and defender_strength must be what the board gives: "
            f"{strengths[0]} and {strengths[1]}",
            ruling,
        )
    support = RED if st.phase == REVOLT else c
    if st.att_commit > st.removed[support]:
        _fail(
            f"pending.attacker_commit: {st.att_commit} committed tiles, but only "
            f"{st.removed[support]} {COLOUR_NAMES[support]} tiles have left the game",
            "B-21, B-25",
        )


def _check_monument(st: BoardData) -> None:
    placed = st.placed
    if st.tile_colour_at(placed) < 0:
        _fail(f"pending.placed: {square_name(placed)} holds no face-up tile", "B-28")
    possible = options(st)
    chosen = st.monument_options
    if not chosen or len(set(chosen)) != len(chosen) or set(chosen) != set(possible):
        _fail(
            "pending.options must be the monuments the placed tile makes possible: "
            + (", ".join(f"{MONUMENT_CODES[m]} {square_name(s)}" for m, s in possible) or "none"),
            "B-28",
        )
