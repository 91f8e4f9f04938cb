"""The plain draw of Lands Uncharted's merged turn model, written before the table-driven one
and kept verbatim as a second method: tests check that the table-driven draw and the NumPy level
graph give the same outcomes, in the same order, from every state."""

from pushluck_teach.games.lands_uncharted import (
    ACE,
    CURSED_DIAMONDS,
    CURSED_HEARTS,
    CURSED_SPADES,
    DEAD,
    DEAD_SHIFT,
    DIAMOND,
    HEART2,
    NINE_TEN,
    THREAT,
    THREAT_CLASSES,
    THREAT_FIELDS,
    TOTAL,
)
from pushluck_teach.games.lands_uncharted.state import _NEXT_PHASE


def _kept_of(model):
    def kept(mask, threat, phase):
        if not model.symmetric:
            return mask
        found = 0
        if model._diamonds and (not threat or phase == DIAMOND):
            found = mask & NINE_TEN
        if model._spades_active and not threat and mask:
            found |= 1 << (mask.bit_length() - 1)
        return found
    return kept


def _kill(pile, ranks, threats):
    while ranks:
        cls = ranks.bit_length() - 1
        ranks &= ~(1 << cls)
        n = (pile >> (4 * cls)) & 15
        pile += n * DEAD - (n << (4 * cls))
    if threats:
        for cls in THREAT_CLASSES:
            n = (pile >> (4 * cls)) & 15
            pile += n * DEAD - (n << (4 * cls))
    return pile


def reference_draw(self, state, only=None):
    """The outcomes of a draw (of class ``only`` alone when given: used to replay)."""
    pile, mask, threat, allies, phase, declared = state
    if not pile:
        pile = self.discard_pile(state)
    symmetric = self.symmetric
    keeps = self._keeps_ranks
    kept = _kept_of(self)
    dead_before = mask & ~kept(mask, threat, phase)
    threats_left = 0
    if symmetric and not threat:
        threats_left = sum((pile >> (4 * c)) & 15 for c in THREAT_CLASSES) - 1
    out = []
    bust_weight = 0
    limit = self._limit if declared else None
    phases = _NEXT_PHASE[phase]
    for cls in self._classes if only is None else (only,):
        n = (pile >> (4 * cls)) & 15
        if not n:
            continue
        rest = pile - (1 << (4 * cls))
        nph = phases[cls]
        if cls == ACE:
            out.append((n, (rest, mask, threat, allies + 1, nph, declared)))
            continue
        if cls < THREAT:
            bit = 1 << cls
            if not mask & bit:
                new_mask = mask | bit
                if limit is None or TOTAL[new_mask] <= limit:
                    if not keeps:  # the other copies of the rank die
                        if symmetric:
                            rest += (n - 1) * DEAD - ((n - 1) << (4 * cls))
                    else:
                        dying = new_mask & ~kept(new_mask, threat, nph) & ~dead_before
                        if dying:
                            rest = _kill(rest, dying, False)
                    out.append((n, (rest, new_mask, threat, allies, nph, declared)))
                    continue
        elif not threat and cls != self._clubs:
            new_mask = mask
            if cls == CURSED_SPADES and mask:
                new_mask = mask & ~(1 << (mask.bit_length() - 1))
            elif cls == CURSED_HEARTS:
                nph = HEART2
            elif cls == CURSED_DIAMONDS:
                nph = DIAMOND
            if symmetric:  # every threat left dies
                rest = (rest & ~THREAT_FIELDS) + threats_left * DEAD
                if keeps:
                    dying = new_mask & ~kept(new_mask, THREAT, nph) & ~dead_before
                    if dying:
                        rest = _kill(rest, dying, False)
                out.append((n, (rest, new_mask, THREAT, allies, nph, declared)))
            else:
                out.append((n, (rest, new_mask, cls, allies, nph, declared)))
            continue
        # A bust: an ally stops it (ally and card discarded), else the turn is lost.
        if allies:
            if keeps and nph != phase:  # a 9 or 10 ends the Q♦ draws
                dying = mask & ~kept(mask, threat, nph) & ~dead_before
                if dying:
                    rest = _kill(rest, dying, False)
            out.append((n, (rest, mask, threat, allies - 1, nph, declared)))
        else:
            bust_weight += n
    dead = pile >> DEAD_SHIFT
    if dead and only is None:
        # A dead card busts and has no other effect (it is no 9 or 10 while Q♦ forces).
        if allies:
            out.append((dead, (pile - DEAD, mask, threat, allies - 1, phases[THREAT],
                               declared)))
        else:
            bust_weight += dead
    if bust_weight:
        out.append((bust_weight, (self.bust_payoff(declared), True)))
    return out

