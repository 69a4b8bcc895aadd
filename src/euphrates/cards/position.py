"""The JSON position format, views and sampling from a view (docs/cards.md, C-19, G-3).

A position is the whole state, hidden parts included (deck order, every hand, the 30
removed cards, the face-down bridge's colour, the generator's state), so
``from_position(to_position(s)) == s``. A view is the same document with the hidden parts
replaced by counts, plus the point piles summarised as C-9 says. Because the view keeps
everything public and only drops what is secret, a view can be turned back into a full
position by dealing the unseen cards at random, which is what search needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from euphrates.cards import turn
from euphrates.cards.context import decision_context
from euphrates.cards.layout import (
    CARD_TOTALS,
    COLUMNS,
    EMPTY,
    GAP_BASE,
    GAPS,
    HAND_SIZE,
    MAX_CARDS,
    SHIP_BASE,
    SHIPS,
    TREASURE,
    TREASURE_CARDS,
    card_letter,
    gap_name,
    ship_code_name,
    spot_name,
)
from euphrates.cards.scoring import result, tallies
from euphrates.cards.state import CardsState
from euphrates.core.colours import COLOUR_LETTERS, LEADER_LETTERS
from euphrates.core.errors import RecordError
from euphrates.core.protocol import Json, View, decision_fields
from euphrates.core.rng import Rng

FORMAT = 1
HIDDEN = "?"
_LETTER = {ch: i for i, ch in enumerate(COLOUR_LETTERS)}
_PILE_LETTER = {**_LETTER, "t": TREASURE}
_SHIP_CODE = {ship_code_name(code): code for code in SHIPS}


# --- small encoders ------------------------------------------------------------------------
def cards_text(counts: list[int]) -> str:
    """Colour counts as letters in colour order: [2, 0, 1, 0] -> ``rrg``."""
    return "".join(COLOUR_LETTERS[c] * n for c, n in enumerate(counts))


def _counts(text: Any, what: str) -> list[int]:
    if not isinstance(text, str):
        raise RecordError(f"{what}: expected a string of colour letters")
    out = [0, 0, 0, 0]
    for ch in text:
        if ch not in _LETTER:
            raise RecordError(f"{what}: {ch!r} is not a colour letter (r b g k)")
        out[_LETTER[ch]] += 1
    return out


def _sequence(text: Any, what: str, alphabet: Mapping[str, int] = _LETTER) -> list[int]:
    if not isinstance(text, str):
        raise RecordError(f"{what}: expected a string of letters")
    try:
        return [alphabet[ch] for ch in text]
    except KeyError as e:
        raise RecordError(f"{what}: {e.args[0]!r} is not allowed here") from None


def _lid_json(lid: int) -> Json | None:
    return None if lid < 0 else {"seat": lid >> 2, "leader": LEADER_LETTERS[lid & 3]}


def _lid(doc: Any, players: int) -> int:
    if doc is None:
        return EMPTY
    try:
        seat = int(doc["seat"])
        leader = LEADER_LETTERS.index(doc["leader"])
    except (KeyError, TypeError, ValueError):
        raise RecordError(f"bad leader reference {doc!r}") from None
    if not 0 <= seat < players:
        raise RecordError(f"bad seat in {doc!r}")
    return seat * 4 + leader


def _side(lo: int, hi: int) -> list[int] | None:
    return None if lo < 0 else [lo + 1, hi + 1]


def _unside(doc: Any) -> tuple[int, int]:
    if doc is None:
        return EMPTY, EMPTY
    try:
        lo, hi = int(doc[0]) - 1, int(doc[1]) - 1
    except (TypeError, ValueError, IndexError, KeyError):
        raise RecordError(f"bad side {doc!r}") from None
    if not 0 <= lo <= hi < COLUMNS:
        raise RecordError(f"bad side {doc!r}")
    return lo, hi


def _colour_or_none(c: int) -> str | None:
    return None if c < 0 else COLOUR_LETTERS[c]


def parse_spot(text: Any) -> int:
    """``3.2`` or ``3-4`` (1-based) to a spot int; RecordError if malformed."""
    if not isinstance(text, str):
        raise RecordError(f"bad spot {text!r}")
    if "." in text:
        a, _, b = text.partition(".")
        if a.isdigit() and b.isdigit() and 1 <= int(a) <= COLUMNS and int(b) <= MAX_CARDS:
            return (int(a) - 1) * 16 + int(b)
    elif "-" in text:
        a, _, b = text.partition("-")
        if a.isdigit() and b.isdigit() and 1 <= int(a) < COLUMNS and int(b) == int(a) + 1:
            return GAP_BASE + int(a) - 1
    raise RecordError(f"bad spot {text!r}")


def parse_gap(text: Any) -> int:
    if text is None:
        return EMPTY
    pos = parse_spot(text)
    if pos < GAP_BASE:
        raise RecordError(f"bad gap {text!r}")
    return pos - GAP_BASE


# --- the pending decision ------------------------------------------------------------------
def _pending(s: CardsState) -> Json:
    return {
        "kind": "over" if s.kind < 0 else turn.KIND_NAMES[s.kind],
        "seat": None if s.kind < 0 else s.seat,
        "colour": _colour_or_none(s.colour),
        "reason": turn.REASON_NAMES[s.reason],
        "conflict": None
        if s.att_lid < 0
        else {
            "type": "war" if s.is_war else "revolt",
            "attacker": _lid_json(s.att_lid),
            "defender": _lid_json(s.def_lid),
            "attacker_base": s.att_base,
            "defender_base": s.def_base,
            "attacker_commit": None if s.att_commit < 0 else s.att_commit,
            "defender_commit": None if s.def_commit < 0 else s.def_commit,
            "attacker_side": _side(s.att_lo, s.att_hi),
            "defender_side": _side(s.def_lo, s.def_hi),
            "spoils_side": _side(s.spoils_lo, s.spoils_hi),
            "winner": None if s.winner < 0 else s.winner,
        },
        "wars": "".join(COLOUR_LETTERS[w] for w in s.wars),
        "ship_column": None if s.ship_col < 0 else s.ship_col + 1,
        "ship_options": [ship_code_name(c) for c in s.ship_opts],
        "ship_points": "".join(COLOUR_LETTERS[c] for c in s.ship_queue),
        "exchange_gap": None if s.exch_gap < 0 else gap_name(s.exch_gap),
        "context": decision_context(s),
    }


# --- positions -----------------------------------------------------------------------------
def _layout(s: CardsState, hide_down: bool) -> Json:
    bridges: list[str | None] = []
    for g in range(GAPS):
        card = s.gaps[g]
        if card < 0:
            bridges.append(None)
        elif g == s.down and hide_down:
            bridges.append(HIDDEN)
        else:
            bridges.append(COLOUR_LETTERS[card])
    return {
        "heads": "".join("t" if o else "r" for o in s.orig),
        "columns": [[card_letter(c) for c in col] for col in s.cols],
        "bridges": bridges,
        "face_down": None if s.down < 0 else gap_name(s.down),
    }


def _common(s: CardsState) -> Json:
    return {
        "format": FORMAT,
        "game": "cards",
        "players": s.players,
        "options": {"open_piles": s.open_piles},
        "version": s._version,
        "first": s.first,
        "active": s.active,
        "actions_left": s.actions_left,
    }


def _leaders(s: CardsState) -> list[Json]:
    return [
        {
            LEADER_LETTERS[c]: (None if s.lpos[p * 4 + c] < 0 else spot_name(s.lpos[p * 4 + c]))
            for c in range(4)
        }
        for p in range(s.players)
    ]


def to_position(s: CardsState) -> Json:
    doc = _common(s)
    doc.update(
        {
            "rng": s.rng,
            "layout": _layout(s, hide_down=False),
            "leaders": _leaders(s),
            "hands": [cards_text(h) for h in s.hands],
            "catastrophes": list(s.cats),
            "ships": [ship_code_name(c) for c in s.ships],
            "deck": "".join(COLOUR_LETTERS[c] for c in s.deck),
            "removed": "".join(COLOUR_LETTERS[c] for c in s.removed),
            "discard": cards_text(s.discard),
            "out": cards_text(s.out),
            "piles": [
                "".join("t" if c == TREASURE else COLOUR_LETTERS[c] for c in p) for p in s.piles
            ],
            "pending": _pending(s),
        }
    )
    return doc


def _int(doc: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = doc.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RecordError(f"position: {key!r} must be an int in {lo}..{hi}, not {v!r}")
    return v


def from_position(doc: Mapping[str, Any]) -> CardsState:
    """Read a position (RecordError if it is malformed or does not account for every card)."""
    try:
        return _from_position(doc)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise RecordError(f"position is malformed: {e!r}") from None


def _from_position(doc: Mapping[str, Any]) -> CardsState:
    if doc.get("game") != "cards":
        raise RecordError("position: not a card-game position (game must be 'cards')")
    if doc.get("format") != FORMAT:
        raise RecordError(f"position: unknown format {doc.get('format')!r}")
    n = _int(doc, "players", 2, 4)
    options = doc.get("options") or {}
    unknown = set(options) - {"open_piles"}
    if unknown:
        raise RecordError(f"position: unknown options {sorted(unknown)}")
    s = CardsState(n, bool(options.get("open_piles", False)))
    s.rng = _int(doc, "rng", 0, (1 << 64) - 1)
    s._version = _int(doc, "version", 0, 1 << 62)
    s.first = _int(doc, "first", 0, n - 1)
    s.active = _int(doc, "active", 0, n - 1)
    s.actions_left = _int(doc, "actions_left", 0, 2)
    lay = doc["layout"]
    heads = lay["heads"]
    if not isinstance(heads, str) or len(heads) != COLUMNS or set(heads) - {"t", "r"}:
        raise RecordError("position: layout.heads must be 8 letters t (treasure) or r (red)")
    s.orig = [h == "t" for h in heads]
    cols = lay["columns"]
    if len(cols) != COLUMNS:
        raise RecordError("position: layout.columns must list 8 columns")
    for c, col in enumerate(cols):
        out = []
        for token in col:
            if token in _LETTER:
                out.append(_LETTER[token])
            elif token in _SHIP_CODE:
                out.append(_SHIP_CODE[token])
            else:
                raise RecordError(f"position: {token!r} in column {c + 1} is not a card")
        if len(out) > MAX_CARDS:
            raise RecordError(f"position: column {c + 1} holds more than 8 cards (C-2)")
        s.cols[c] = out
    bridges = lay["bridges"]
    if len(bridges) != GAPS:
        raise RecordError("position: layout.bridges must list 7 gaps")
    s.gaps = [EMPTY if b is None else _LETTER[b] for b in bridges]
    s.down = parse_gap(lay.get("face_down"))
    if s.down >= 0 and s.gaps[s.down] < 0:
        raise RecordError("position: the face-down bridge's gap is empty")
    leaders = doc["leaders"]
    if len(leaders) != n:
        raise RecordError("position: one leader entry per seat")
    for p, entry in enumerate(leaders):
        for c in range(4):
            where = entry.get(LEADER_LETTERS[c])
            s.lpos[p * 4 + c] = EMPTY if where is None else parse_spot(where)
    _check_leaders(s)
    hands = doc["hands"]
    if len(hands) != n:
        raise RecordError("position: one hand per seat")
    s.hands = [_counts(h, "hand") for h in hands]
    s.cats = [bool(x) for x in doc["catastrophes"]]
    if len(s.cats) != n:
        raise RecordError("position: one catastrophe flag per seat")
    s.ships = sorted(_SHIP_CODE[x] for x in doc["ships"])
    s.deck = _sequence(doc["deck"], "deck")
    s.removed = _sequence(doc["removed"], "removed")
    s.discard = _counts(doc["discard"], "discard")
    s.out = _counts(doc["out"], "out")
    piles = doc["piles"]
    if len(piles) != n:
        raise RecordError("position: one point pile per seat")
    s.piles = [_sequence(p, "pile", _PILE_LETTER) for p in piles]
    _read_pending(s, doc["pending"])
    _check_census(s)
    return s


def _check_leaders(s: CardsState) -> None:
    seen: set[int] = set()
    for pos in s.lpos:
        if pos < 0:
            continue
        if pos in seen:
            raise RecordError(f"position: two leaders on {spot_name(pos)}")
        seen.add(pos)
        if pos >= GAP_BASE:
            if s.gaps[pos - GAP_BASE] < 0:
                raise RecordError(f"position: a leader stands on the empty gap {spot_name(pos)}")
        else:
            col, row = s.cols[pos >> 4], pos & 15
            if row > len(col) or (row and col[row - 1] >= SHIP_BASE):
                raise RecordError(f"position: no card for a leader at {spot_name(pos)}")


def _read_pending(s: CardsState, p: Mapping[str, Any]) -> None:
    kind = p["kind"]
    if kind == "over":
        s.kind = turn.OVER
        s.seat = EMPTY
        s.result = result(s.piles)
    else:
        if kind not in turn.KIND_NAMES:
            raise RecordError(f"position: unknown decision kind {kind!r}")
        s.kind = turn.KIND_NAMES.index(kind)
        s.seat = _int(p, "seat", 0, s.players - 1)
    colour = p.get("colour")
    s.colour = EMPTY if colour is None else _LETTER[colour]
    s.reason = turn.REASON_NAMES.index(p.get("reason", "column"))
    conf = p.get("conflict")
    if conf is not None:
        s.is_war = conf["type"] == "war"
        s.att_lid = _lid(conf["attacker"], s.players)
        s.def_lid = _lid(conf["defender"], s.players)
        s.att_base = int(conf["attacker_base"])
        s.def_base = int(conf["defender_base"])
        ac, dc = conf.get("attacker_commit"), conf.get("defender_commit")
        s.att_commit = EMPTY if ac is None else int(ac)
        s.def_commit = EMPTY if dc is None else int(dc)
        s.att_lo, s.att_hi = _unside(conf.get("attacker_side"))
        s.def_lo, s.def_hi = _unside(conf.get("defender_side"))
        s.spoils_lo, s.spoils_hi = _unside(conf.get("spoils_side"))
        w = conf.get("winner")
        s.winner = EMPTY if w is None else int(w)
    s.wars = _sequence(p.get("wars", ""), "wars")
    sc = p.get("ship_column")
    s.ship_col = EMPTY if sc is None else int(sc) - 1
    s.ship_opts = [_SHIP_CODE[x] for x in p.get("ship_options", [])]
    s.ship_queue = _sequence(p.get("ship_points", ""), "ship_points")
    s.exch_gap = parse_gap(p.get("exchange_gap"))
    if s.kind in (turn.COMMIT,) and s.att_lid < 0:
        raise RecordError("position: a commit decision needs a conflict")
    if s.kind in (turn.POINT, turn.SHIP_POINT, turn.COMMIT) and s.colour < 0:
        raise RecordError("position: this decision needs a colour")
    if s.kind == turn.EXCHANGE and s.exch_gap < 0:
        raise RecordError("position: an exchange decision needs its gap")
    if s.kind == turn.SHIP and (s.ship_col < 0 or not s.ship_opts):
        raise RecordError("position: a ship decision needs its column and options")


def census(s: CardsState) -> tuple[list[int], int]:
    """Every coloured card and every treasure card, wherever it is (C-1): (per colour,
    treasure cards). Cards committed to a pending conflict are counted too."""
    counts = [0, 0, 0, 0]
    for col in s.cols:
        for card in col:
            if card < SHIP_BASE:
                counts[card] += 1
    for g in s.gaps:
        if g >= 0:
            counts[g] += 1
    counts[0] += sum(1 for o in s.orig if not o)  # replacement heads are red cards
    for h in s.hands:
        for c in range(4):
            counts[c] += h[c]
    for card in s.deck:
        counts[card] += 1
    for card in s.removed:
        counts[card] += 1
    treasures_seen = sum(s.orig)
    for pile in s.piles:
        ts, t = tallies(pile)
        treasures_seen += t
        for c in range(4):
            counts[c] += ts[c]
    for c in range(4):
        counts[c] += s.discard[c] + s.out[c]
    if s.att_lid >= 0 and s.colour >= 0:
        counts[s.colour] += max(s.att_commit, 0) + max(s.def_commit, 0)
    return counts, treasures_seen


def _check_census(s: CardsState) -> None:
    counts, t = census(s)
    if counts != list(CARD_TOTALS) or t != TREASURE_CARDS:
        raise RecordError(
            f"position does not account for every card (C-1): colours {counts} "
            f"(expected {list(CARD_TOTALS)}), treasure cards {t} (expected 8)"
        )
    used = 3 - len(s.ships)
    on_layout = sum(1 for col in s.cols for card in col if card >= SHIP_BASE)
    if used != on_layout:
        raise RecordError("position: every built ship must lie in the layout (C-15)")


# --- views ---------------------------------------------------------------------------------
def pile_summary(s: CardsState) -> list[Json]:
    """C-9: closed piles show their top card and height; open piles every colour."""
    out: list[Json] = []
    for pile in s.piles:
        if s.open_piles:
            counts, t = tallies(pile)
            out.append({**{COLOUR_LETTERS[c]: counts[c] for c in range(4)}, "t": t})
        else:
            top = None if not pile else ("t" if pile[-1] == TREASURE else COLOUR_LETTERS[pile[-1]])
            out.append({"top": top, "height": len(pile)})
    return out


def view(s: CardsState, seat: int | None) -> View:
    """What ``seat`` may see (None: a spectator), C-19 and G-3."""
    if seat is not None and not 0 <= seat < s.players:
        raise ValueError(f"no seat {seat} in a {s.players}-player game")
    hide_down = s.down >= 0 and seat != s.active
    v = _common(s)
    v.update(
        {
            "layout": _layout(s, hide_down),
            "leaders": _leaders(s),
            "hand": None if seat is None else cards_text(s.hands[seat]),
            "hand_counts": [sum(h) for h in s.hands],
            "catastrophes": list(s.cats),
            "ships": [ship_code_name(c) for c in s.ships],
            "deck_count": len(s.deck),
            "removed_count": len(s.removed),
            "discard": cards_text(s.discard),
            "out": cards_text(s.out),
            "piles": pile_summary(s),
            # The record of every scoring event, public by G-3; a client shows `piles`.
            "scored": [
                "".join("t" if c == TREASURE else COLOUR_LETTERS[c] for c in p) for p in s.piles
            ],
            "pending": _pending(s),
            "over": s.kind < 0,
            "outcome": None if s.result is None else s.result.to_json(),
        }
    )
    v.update(decision_fields(s, seat))
    return v


def sample_from_view(v: Mapping[str, Any], rng: Rng) -> CardsState:
    """A full state consistent with the view: the unseen cards (other hands, the deck, the
    cards removed in a two-player game, a face-down bridge the viewer did not lay) are
    shuffled and dealt back in the counts the view shows."""
    seat = v.get("viewer")
    n = int(v["players"])
    doc: dict[str, Any] = {k: v[k] for k in _common_keys()}
    lay = {**v["layout"], "bridges": list(v["layout"]["bridges"])}
    doc.update(
        {
            "rng": 0,
            "layout": lay,
            "leaders": v["leaders"],
            "catastrophes": v["catastrophes"],
            "ships": v["ships"],
            "discard": v["discard"],
            "out": v["out"],
            "piles": v["scored"],
            "pending": v["pending"],
        }
    )
    # the unseen pool: every card minus what this seat sees
    seen = [0, 0, 0, 0]
    for col in lay["columns"]:
        for token in col:
            if token in _LETTER:
                seen[_LETTER[token]] += 1
    hidden_gap = EMPTY
    for g, b in enumerate(lay["bridges"]):
        if b == HIDDEN:
            hidden_gap = g
        elif b is not None:
            seen[_LETTER[b]] += 1
    seen[0] += lay["heads"].count("r")
    own = _counts(v["hand"], "hand") if seat is not None else [0, 0, 0, 0]
    for c in range(4):
        seen[c] += own[c]
    for pile in v["scored"]:
        for ch in pile:
            if ch in _LETTER:
                seen[_LETTER[ch]] += 1
    for text in (v["discard"], v["out"]):
        for ch in text:
            seen[_LETTER[ch]] += 1
    conf = v["pending"].get("conflict")
    if conf is not None and v["pending"].get("colour") is not None:
        committed = (conf.get("attacker_commit") or 0) + (conf.get("defender_commit") or 0)
        seen[_LETTER[v["pending"]["colour"]]] += committed
    pool: list[int] = []
    for c in range(4):
        if seen[c] > CARD_TOTALS[c]:
            raise RecordError("view shows more cards than exist (C-1)")
        pool.extend([c] * (CARD_TOTALS[c] - seen[c]))
    rng.shuffle(pool)
    counts = v["hand_counts"]
    hands: list[str] = []
    for p in range(n):
        if p == seat:
            hands.append(v["hand"])
            continue
        k = counts[p]
        taken, pool = pool[:k], pool[k:]
        hands.append(cards_text([taken.count(c) for c in range(4)]))
    if hidden_gap >= 0:
        lay["bridges"][hidden_gap] = COLOUR_LETTERS[pool.pop()]
    removed, pool = pool[: v["removed_count"]], pool[v["removed_count"] :]
    if len(pool) != v["deck_count"]:
        raise RecordError("view does not account for every card (C-1)")
    doc["hands"] = hands
    doc["removed"] = "".join(COLOUR_LETTERS[c] for c in removed)
    doc["deck"] = "".join(COLOUR_LETTERS[c] for c in pool)
    doc["rng"] = rng.next64()
    return from_position(doc)


def _common_keys() -> tuple[str, ...]:
    return ("format", "game", "players", "options", "version", "first", "active", "actions_left")


def hand_size_ok(s: CardsState) -> bool:
    return all(sum(h) <= HAND_SIZE for h in s.hands)
