r"""Trap structures: the traps of an Incan Gold round's state
(:mod:`pushluck_teach.games.incan_gold.turn`), as segments.

A state's **trap structure**: the traps of the game not flipped this round, cut at every flipped
trap and at every ring position whose trap left the game, form *segments*; a segment is
``(L, a, b)`` with ``L`` traps in a row and ``a``/``b`` = 1 when the position beyond that end
holds a trap flipped this round (0: a wall, a trap out of the game).  A trap at an end whose
flag is 1 springs; so does a lone trap (``L = 1``) with any flag 1.  Flipping a safe trap at
place ``i`` splits ``(L, a, b)`` into ``(i-1, a, 1)`` and ``(L-i, 1, b)`` (empty parts
dropped).  Before the first trap of a round with no trap out of the game, the 13 traps are a
*ring*; any first flip turns it into ``(12, 1, 1)``.  Segments are kept as a sorted multiset
with ``a ≥ b`` (a mirror image has the same future), so the 521 trap masks of a full ring
collapse into 25 structures.
"""

from __future__ import annotations

from pushluck_teach.games.incan_gold.rules import FULL_RING, RING

Segment = tuple[int, int, int]  # (L, a, b); a ring is (L, -1, -1)
Struct = tuple[Segment, ...]


def trap_structure(in_game: int, flipped: int) -> Struct:
    """The segments of the traps in the game (bit ``r-1`` for ♠r) not flipped this round."""
    free = in_game & ~flipped
    if free == 0:
        return ()
    if free == FULL_RING:
        return ((RING, -1, -1),)
    start = next(p for p in range(RING) if not free >> p & 1)
    segments: list[Segment] = []
    length = 0
    left = 0
    for step in range(1, RING + 1):
        p = (start + step) % RING
        if free >> p & 1:
            if length == 0:
                prev = (p - 1) % RING
                left = 1 if flipped >> prev & 1 else 0
            length += 1
        elif length:
            right = 1 if flipped >> p & 1 else 0
            segments.append(_segment(length, left, right))
            length = 0
    if length:  # the run ends at the start position, which is not free
        right = 1 if flipped >> start & 1 else 0
        segments.append(_segment(length, left, right))
    return tuple(sorted(segments))


def _segment(length: int, a: int, b: int) -> Segment:
    return (length, max(a, b), min(a, b))


def struct_size(struct: Struct) -> int:
    return sum(seg[0] for seg in struct)


def struct_danger(struct: Struct) -> int:
    """How many traps in the deck would spring if flipped now."""
    total = 0
    for length, a, b in struct:
        if a < 0:
            continue
        total += (1 if a or b else 0) if length == 1 else a + b
    return total


def struct_moves(struct: Struct) -> tuple[tuple[int, Struct], ...]:
    """Every safe trap flip as ``(number of such traps, structure after)``, merged."""
    moves: dict[Struct, int] = {}
    for index, (length, a, b) in enumerate(struct):
        rest = struct[:index] + struct[index + 1:]
        if a < 0:  # an intact ring: every flip is alike and safe
            after = tuple(sorted((*rest, (length - 1, 1, 1)))) if length > 1 else rest
            moves[after] = moves.get(after, 0) + length
            continue
        for i in range(1, length + 1):
            if (i == 1 and a) or (i == length and b):
                continue
            parts = [seg for seg in ((i - 1, a, 1), (length - i, 1, b)) if seg[0] > 0]
            after = tuple(sorted((*rest, *(_segment(*seg) for seg in parts))))
            moves[after] = moves.get(after, 0) + 1
    return tuple((w, st) for st, w in moves.items())



def reachable_structs(start: Struct) -> tuple[Struct, ...]:
    """Every trap structure a round reaches from ``start`` by safe flips (at most 114 from any
    deck of the game: 25 from the full ring), ``start`` first."""
    found = {start: None}
    todo = [start]
    while todo:
        for _, after in struct_moves(todo.pop()):
            if after not in found:
                found[after] = None
                todo.append(after)
    return tuple(found)
