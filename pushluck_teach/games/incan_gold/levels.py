r"""Incan Gold's round on arrays: a state's integer code (its bit fields), the level graph
the float solver expands a level at a time with NumPy (the speed path of the turn models of
:mod:`pushluck_teach.games.incan_gold.turn`), and the estimate that sizes a solve before it
starts.

Solving.  Both models offer :meth:`~IncanGoldTurnModel.level_graph`: the same round
with its states coded as integers (:class:`IncanGoldLevelGraph`), which the float solver expands
a level (cards flipped) at a time with NumPy (:mod:`pushluck_teach.solve.levels`), with values
equal bit for bit to the recursion's.  Exact mode and the in-browser build (no NumPy) use the
recursion.  :func:`estimate_states` sizes a solve before it starts.

Merged decisions (the level path in company).  At a decision where a set ``L`` of the other
explorers inside carries at least its thresholds, those leave whatever explorer 0 chooses, so
the decision's two actions read only:

* ``stop``: explorer 0 leaves with them and banks ``c + ⌊p / (1 + |L|)⌋`` (two or more leave:
  the artifacts stay on the path);
* ``draw``: the leavers split the path, ``p' = p mod |L|``, and take its artifacts if ``|L| =
  1`` (``a' = 0``; else ``a' = a``); then the next card is flipped for explorer 0 and the
  stayers ``S``.  Its ``Q`` is the value of the *chance node* ``N = (deck, c, S, p', a')``
  before that flip (draw only, nobody decides before it, like a round's start; with ``S``
  empty, the solo state holding ``C = c + p' + a'``): ``N``'s outcomes are the model's
  outcomes of the decision's draw, weight for weight and in the same order (the model's
  ``transitions`` lets the others decide, then flips).

So ``V`` is the stop value unless ``V(N)`` beats it under the solver's tie rule (then ``V =
V(N)``), and every decision with the same ``N`` and the same ``⌊p / (1 + |L|)⌋`` has the same
value and best action.  With one leaver every ``(p, a)`` reaches the same ``N = (deck, c, S,
0, 0)``.  The level graph therefore stores ``N`` once and values such a decision where it
occurs as a successor (an *inline* state of :mod:`pushluck_teach.solve.levels`) from its stop
value and ``V(N)``, once an explorer has left before (while every other explorer is inside,
the cards flipped fix ``c``, ``p`` and ``a``: nothing merges, and the decision stays stored).
``V(N)`` is the same sum of the same outcome values in the same order as the decision's
``Q(draw)``, so every value is the recursion's bit for bit (tests compare them).  At round 2's
start with others at 5, 10 and 15, 5.7 of the 9.3 million decisions reachable are such
decisions: the solve stores 4.6 million states instead of 9.3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError
from pushluck_teach.games.incan_gold.rules import (
    ARTIFACT_VALUES,
    GEMS,
    OTHERS_MAX,
    POW3,
    RING,
    ROUNDS_MAX,
    RoundDeck,
)
from pushluck_teach.games.incan_gold.structures import (
    reachable_structs,
    struct_danger,
    struct_moves,
    struct_size,
    trap_structure,
)

if TYPE_CHECKING:  # annotations only: the turn models build their level graph here
    from pushluck_teach.games.incan_gold.turn import IGState, IncanGoldTurnModel

# Fields of a state's integer code, lowest bits first: (name, bits).  ``kind`` 0 is a decision
# after a flip, 1 a draw-only node (the round's start, or a merged decision's chance node:
# module docstring), 2 a terminal (``carried`` its payoff, bit 0 of ``inside`` set when a trap
# sprang).  ``inside`` = 0 is a solo state (its ``carried`` field holds ``C``).
CODE_FIELDS: tuple[tuple[str, int], ...] = (
    ("tcode", 13), ("amask", 5), ("struct", 7), ("carried", 11), ("inside", 7), ("path", 12),
    ("arts", 6), ("kind", 2),
)
#: The most a coded decision state may hold (carried, path and artifacts): a round adds at most
#: 168 (128 gems, 40 of artifacts), and a payoff must fit the ``carried`` field.
CARRIED_MAX = (1 << 11) - 1 - 168
#: Cards in the largest deck (13 traps, 16 treasures, 5 artifacts): levels count cards flipped.
DECK_MAX = RING + 2 * len(GEMS) + ROUNDS_MAX
_SHIFT: dict[str, int] = {}
_WIDTH: dict[str, int] = {}
_at = 0
for _name, _bits in CODE_FIELDS:
    _SHIFT[_name], _WIDTH[_name] = _at, _bits
    _at += _bits
del _at, _name, _bits
_KIND_START = 1 << _SHIFT["kind"]
_KIND_END = 2 << _SHIFT["kind"]


#: A level solve of a position with other explorers inside stores about this share of
#: :func:`estimate_states` or less (the states of a round 1 after A♦ unless said; measured,
#: with the merged decisions of the module docstring): others at 10: 0.47; at 5 and 10: 0.26
#: (round 3: 0.36); 3, 6, 9: 0.24; 4, 8, 12, 16: 0.25; seven from 1-7: 0.22; round 2's start
#: with 5, 10, 15: 0.44.  Thresholds the remaining gems seldom reach store fewer (3-21 by
#: threes: 0.11; the table's bots at 10, 10, 30 in round 2 after a joker: 0.13), which the
#: estimate does not see: hence :data:`GROUP_REFUSAL_FACTOR`.
GROUP_LEVEL_SHARE = 3 / 8
#: The level budget of a round with other explorers (``max_states`` of its level graph, in
#: place of the 5 million of other games): the table's 4-explorer game (bots at 10, 10 and 30)
#: in round 5 with four traps out and all five artifacts in stores 14.5 million states (about
#: 24 s of CPU and 515 MB at its peak on the 2-core machine), so a page with the largest deck
#: answers, slowly and with its progress bar, instead of refusing.
GROUP_LEVEL_MAX_STATES = 16_000_000
#: A round in company is refused up front only when :data:`GROUP_LEVEL_SHARE` of its estimate
#: is this many times the budget: a solve stores 0.1-0.5 of the estimate (measured above), so
#: a position whose estimate is over the budget is still tried, and the solve's own count
#: stops one that really is larger.
GROUP_REFUSAL_FACTOR = 4


def _field(codes: Any, name: str) -> Any:
    return codes >> _SHIFT[name] & ((1 << _WIDTH[name]) - 1)


class IncanGoldLevelGraph:
    """One round of a model (solo: ``others=()``) for the level-by-level NumPy solver
    (:mod:`pushluck_teach.solve.levels`, whose docstring gives the protocol).  States are coded
    as integers (:data:`CODE_FIELDS`); a level is the number of cards flipped.  The transitions,
    payoffs and proved pruning are those of :class:`IncanGoldTurnModel` and
    :class:`IncanGoldGroupModel`, written on arrays, with the outcomes in the models' order (so
    the float sums, and the values, are the recursion's bit for bit: tests/test_incan_gold.py
    compares them).  A flip moves a code by a fixed amount per outcome and per number of
    explorers inside, so each outcome of a whole level is one addition.  NumPy is imported here
    only: without it the models answer ``level_graph() = None`` and the recursion solves.
    In company, a decision where another explorer leaves now is inline, valued from its
    chance node (module docstring, "Merged decisions"): a code of kind 1 (draw only), as a
    round's start is."""

    actions = (STOP, DRAW)

    def __init__(self, deck: RoundDeck, others: tuple[int, ...] = (), *,
                 solo: IncanGoldTurnModel | None = None) -> None:
        import numpy as np

        self.deck = deck
        self.others = others
        self._solo = solo  # the round's solo model: its deck summaries size the estimate
        if others:
            self.max_states = GROUP_LEVEL_MAX_STATES  # the level solver's budget (levels.py)
        self.structs = reachable_structs(trap_structure(deck.traps, 0))
        self.struct_id = {s: i for i, s in enumerate(self.structs)}
        moves = [struct_moves(s) for s in self.structs]
        width = max(1, max(len(m) for m in moves))
        self.move_weight = np.zeros((len(self.structs), width), np.int64)
        self.move_to = np.zeros((len(self.structs), width), np.int64)
        for i, outcomes in enumerate(moves):
            for k, (w, after) in enumerate(outcomes):
                self.move_weight[i, k] = w
                self.move_to[i, k] = self.struct_id[after]
        self.struct_size = np.array([struct_size(s) for s in self.structs], np.int64)
        self.struct_danger = np.array([struct_danger(s) for s in self.structs], np.int64)
        codes = np.arange(3 ** len(GEMS), dtype=np.int64)
        self.digits = np.stack([codes // p % 3 for p in POW3])
        self.t_count = self.digits.sum(axis=0)
        self.t_gems = (self.digits * np.array(GEMS, np.int64)[:, None]).sum(axis=0)
        # Indexed by the whole amask field (unused high bits are never set).
        masks = np.arange(1 << _WIDTH["amask"], dtype=np.int64)
        self.artifact_values = tuple(ARTIFACT_VALUES[a] for a in deck.artifacts)
        self.a_count = np.array([int(m).bit_count() for m in masks], np.int64)
        self.a_value = np.array([sum(v for j, v in enumerate(self.artifact_values) if m >> j & 1)
                                 for m in masks], np.int64)
        self.popcount = np.array([i.bit_count() for i in range(1 << _WIDTH["inside"])], np.int64)
        # Bit j set where other j's threshold is reached, per amount carried (a look-up instead
        # of a pass per explorer: the leavers are ``inside & reached[carried]``).
        carried = np.arange(1 << _WIDTH["carried"], dtype=np.int64)
        self._reached = carried * 0
        for j, threshold in enumerate(others):
            self._reached |= (carried >= threshold).astype(np.int64) << j
        assert _SHIFT["struct"] == _SHIFT["amask"] + _WIDTH["amask"]
        self._mask_struct_bits = (1 << (_WIDTH["amask"] + _WIDTH["struct"])) - 1
        both = np.arange(self._mask_struct_bits + 1, dtype=np.int64)
        sizes = np.zeros(1 << _WIDTH["struct"], np.int64)
        sizes[:len(self.structs)] = self.struct_size
        self._mask_struct_cards = (self.a_count[both & ((1 << _WIDTH["amask"]) - 1)]
                                   + sizes[both >> _WIDTH["amask"]])
        self._last_leave: tuple[Any, Any] | None = None
        self._everyone = (1 << len(others)) - 1
        # What a treasure of class i adds to a code with k explorers inside (k = 1..8): one
        # fewer of the class, gems // k carried, the remainder on the path.
        ks = np.arange(OTHERS_MAX + 2, dtype=np.int64)
        ks[0] = 1
        self._treasure_shift = [
            (gems // ks << _SHIFT["carried"]) + (gems % ks << _SHIFT["path"]) - POW3[i]
            for i, gems in enumerate(GEMS)]

    def estimated_states(self, state: IGState) -> int | None:
        """About how many states a level solve from ``state`` stores: :func:`estimate_states`,
        times :data:`GROUP_LEVEL_SHARE` while other explorers are inside, at most the budget
        (:data:`GROUP_LEVEL_MAX_STATES`: the solve's own count stops a larger one) unless it
        is :data:`GROUP_REFUSAL_FACTOR` times the budget (refused up front).  (The model's
        estimate sizes the recursion's memo, exact mode's above all, and stays as it is.)
        ``None`` without the round's solo model: no estimate, the solve's own count
        decides."""
        if self._solo is None:
            return None
        estimate = estimate_states(self._solo, state, self.others)
        if estimate is None or state[0] == "end" or len(state) == 5 or not self.others:
            return estimate
        inside = state[5] if state[0] == "in" else 1
        if not inside:
            return estimate
        share = max(1, int(estimate * GROUP_LEVEL_SHARE))
        if share > GROUP_REFUSAL_FACTOR * GROUP_LEVEL_MAX_STATES:
            return share
        return min(share, GROUP_LEVEL_MAX_STATES)

    # ---- codes ---------------------------------------------------------------------------
    def code(self, state: IGState) -> int | None:
        """The integer code of a state (``None``: a value too large for its field; the
        recursion then answers)."""
        kind = state[0]
        if kind == "end":
            payoff = state[1]
            if not 0 <= payoff < 1 << _WIDTH["carried"]:
                return None
            return _KIND_END | payoff << _SHIFT["carried"] | int(bool(state[2])) << \
                _SHIFT["inside"]
        sid = self.struct_id.get(state[1])
        if sid is None:
            return None
        if len(state) == 5:
            fields = {"carried": state[4], "inside": 0, "path": 0, "arts": 0}
        else:
            fields = dict(zip(("carried", "inside", "path", "arts"), state[4:], strict=True))
        if fields["carried"] + fields["path"] + fields["arts"] > CARRIED_MAX:
            return None
        fields.update(tcode=state[2], amask=state[3], struct=sid, kind=int(kind == "start"))
        code = 0
        for name, value in fields.items():
            if not 0 <= value < 1 << _WIDTH[name]:
                return None
            code |= value << _SHIFT[name]
        return code

    def state(self, code: int) -> IGState:
        """The state of an integer code (:meth:`code` inverted)."""
        f = {name: _field(code, name) for name, _ in CODE_FIELDS}
        if f["kind"] == 2:
            return ("end", f["carried"], bool(f["inside"] & 1))
        head = ("start" if f["kind"] else "in", self.structs[f["struct"]], f["tcode"],
                f["amask"])
        if f["inside"] == 0:
            return (*head, f["carried"])
        return (*head, f["carried"], f["inside"], f["path"], f["arts"])

    @staticmethod
    def _compose(**fields: Any) -> Any:
        code = 0
        for name, value in fields.items():
            code = code | value << _SHIFT[name]
        return code

    def cards_left(self, codes: Any) -> Any:
        # ``amask`` and ``struct`` are neighbouring fields: one look-up counts their cards.
        return (self._mask_struct_cards[codes >> _SHIFT["amask"] & self._mask_struct_bits]
                + self.t_count[_field(codes, "tcode")])

    def level(self, codes: Any) -> Any:
        """Cards flipped (of the largest deck): grows by one along every flip."""
        return DECK_MAX - self.cards_left(codes)

    def is_terminal(self, codes: Any) -> Any:
        return _field(codes, "kind") == 2

    def payoff(self, codes: Any) -> Any:
        return _field(codes, "carried").astype(float)

    # ---- leaving ---------------------------------------------------------------------------
    def _leavers(self, carried: Any, inside: Any) -> Any:
        return inside & self._reached[carried]

    def _leave(self, codes: Any) -> tuple[Any, Any]:
        """``(what leaving banks as floats, NaN where it is not legal; leaving is legal and
        provably optimal)``: the models' ``leave_value`` and ``stop_is_optimal`` (their
        docstrings prove the rules).  The solver asks for both of the same array in turn: the
        last answer is kept (keyed by the array object itself)."""
        import numpy as np

        last = self._last_leave
        if last is not None and last[0] is codes:
            return last[1]
        c = _field(codes, "carried")
        t, m, sid = _field(codes, "tcode"), _field(codes, "amask"), _field(codes, "struct")
        sigma = self.t_gems[t] + self.a_value[m]
        danger = self.struct_danger[sid]
        decision = codes >> _SHIFT["kind"] == 0
        # Alone: leaving banks C (the solo rule); in company: the group model's leave value
        # and its two bounds, computed on the codes in company only (all of them: no copy).
        leave = c
        optimal = sigma <= danger * c
        inside = _field(codes, "inside") if self.others else None
        company = np.flatnonzero(inside) if inside is not None else ()
        if len(company):
            every = len(company) == len(codes)
            pick = slice(None) if every else company
            rows = codes[pick]
            c, inside = c[pick], inside[pick]
            path, arts = _field(rows, "path"), _field(rows, "arts")
            t, m, sid, sigma, danger = t[pick], m[pick], sid[pick], sigma[pick], danger[pick]
            leavers = self.popcount[inside & self._reached[c]]
            in_company = c + path // (1 + leavers) + np.where(leavers == 0, arts, 0)
            n = self.struct_size[sid] + self.t_count[t] + self.a_count[m]
            total = c + path + arts
            optimal_company = (((sigma <= danger * total)
                                & (n * in_company >= n * total + sigma - danger * total))
                               | ((n - danger) * (total + sigma) <= n * in_company))
            if every:
                leave, optimal = in_company, optimal_company
            else:
                leave = leave.copy()
                leave[company] = in_company
                optimal[company] = optimal_company
        value = np.where(decision, leave, np.nan)
        result = (value, optimal & decision)
        self._last_leave = (codes, result)
        return result

    def stop_value(self, codes: Any) -> Any:
        return self._leave(codes)[0]

    def stop_is_optimal(self, codes: Any) -> Any:
        return self._leave(codes)[1]

    def turn_total(self, codes: Any) -> Any:
        """The models' ``turn_total`` where leaving is legal: what leaving now takes home."""
        import numpy as np

        return np.nan_to_num(self._leave(codes)[0], nan=0.0)

    # ---- decisions where another explorer leaves: inline ----------------------------------
    def inline(self, codes: Any) -> Any:
        """The decisions in company where another explorer leaves now (module docstring,
        "Merged decisions"): valued where they occur from their leave value and their draw's
        chance node, never stored."""
        import numpy as np

        if not self.others:
            return np.zeros(len(codes), bool)
        inside = _field(codes, "inside")
        leavers = self._leavers(_field(codes, "carried"), inside)
        # While every other explorer is inside, the cards flipped fix the gems carried, the
        # path and the artifacts: such a decision is alone with its chance node (kept stored).
        return (_field(codes, "kind") == 0) & (leavers != 0) & (inside != self._everyone)

    def inline_successors(self, codes: Any) -> Any:
        """The chance node of each inline decision: the state once the others at their
        threshold have left, before the flip (a draw-only code, like a round's start)."""
        c, inside = _field(codes, "carried"), _field(codes, "inside")
        path, arts = _field(codes, "path"), _field(codes, "arts")

        c, inside, path, arts, _ = self._after_leaving(self._leavers(c, inside), c, inside,
                                                      path, arts)
        return _KIND_START | self._compose(
            tcode=_field(codes, "tcode"), amask=_field(codes, "amask"),
            struct=_field(codes, "struct"), carried=c, inside=inside, path=path, arts=arts)

    def _after_leaving(self, leavers: Any, c: Any, inside: Any, path: Any, arts: Any
                       ) -> tuple[Any, Any, Any, Any, Any]:
        """``leavers`` (a mask per code) leave: they split the path, a lone one takes the
        artifacts; once nobody else is inside, explorer 0 carries it all.  The new ``carried``,
        ``inside``, ``path`` and ``arts``, and whether explorer 0 is now alone."""
        import numpy as np

        count = self.popcount[leavers]
        path = np.where(count > 0, path % np.maximum(count, 1), path)
        arts = np.where(count == 1, 0, arts)
        inside = inside & ~leavers
        solo = inside == 0
        c = np.where(solo, c + path + arts, c)
        return c, inside, np.where(solo, 0, path), np.where(solo, 0, arts), solo

    def inline_values(self, codes: Any, context: Any) -> Any:
        """``V`` of inline decisions as the recursion takes it: ``stop`` (leave with the others
        who leave now), then ``draw`` if it beats that (the chance node's value is the draw's
        ``Q``, the same sum of the same outcomes)."""
        import numpy as np

        stop = self._leave(codes)[0]
        draw = context.value_of(self.inline_successors(codes))
        return np.where(context.better(draw, stop), draw, stop)

    # ---- a flip ----------------------------------------------------------------------------
    def transitions(self, codes: Any, action: str) -> tuple[Any, Any, Any]:
        """The outcomes of a flip from each code (one level), in the models' order: treasures
        by class, artifacts, the springing traps, the safe trap flips."""
        import numpy as np

        if action != DRAW:
            raise IllegalActionError(f"unknown Incan Gold action {action!r}")
        t, m, sid = _field(codes, "tcode"), _field(codes, "amask"), _field(codes, "struct")
        c, inside = _field(codes, "carried"), _field(codes, "inside")
        path, arts = _field(codes, "path"), _field(codes, "arts")
        group = bool(self.others) and bool(inside.any())
        if group:
            # The others decide (not before the first flip): leavers split the path, a lone
            # one takes the artifacts; once nobody else is inside, explorer 0 has it all.
            leavers = self._leavers(c, inside) * (_field(codes, "kind") == 0)
            c, inside, path, arts, solo = self._after_leaving(leavers, c, inside, path, arts)
            k = 1 + self.popcount[inside]
        else:
            solo = np.ones(len(codes), bool)
            k = np.ones(len(codes), np.int64)
        base = self._compose(tcode=t, amask=m, struct=sid, carried=c, inside=inside, path=path,
                             arts=arts)
        rows = len(GEMS) + len(self.artifact_values) + 1 + self.move_weight.shape[1]
        weights = np.empty((rows, len(codes)), np.int64)
        shift = np.empty((rows, len(codes)), np.int64)
        row = 0
        for i in range(len(GEMS)):
            weights[row] = self.digits[i][t]
            shift[row] = self._treasure_shift[i][k] if group else self._treasure_shift[i][1]
            row += 1
        for j, value in enumerate(self.artifact_values):
            weights[row] = m >> j & 1
            gain = np.where(solo, value << _SHIFT["carried"], value << _SHIFT["arts"]) \
                if group else value << _SHIFT["carried"]
            shift[row] = gain - (1 << (j + _SHIFT["amask"]))
            row += 1
        bust = row
        weights[bust] = self.struct_danger[sid]
        shift[bust] = 0
        row += 1
        for q in range(self.move_weight.shape[1]):
            weights[row] = self.move_weight[sid, q]
            shift[row] = (self.move_to[sid, q] - sid) << _SHIFT["struct"]
            row += 1
        nxt = base + shift
        nxt[bust] = _KIND_END | 1 << _SHIFT["inside"]
        final = self.struct_size[sid] + self.t_count[t] + self.a_count[m] == 1
        if final.any():
            # The deck runs out: everyone inside leaves together.
            last = (weights > 0) & final
            last[bust] = False
            after = np.where(last, nxt, 0)
            alone = np.where(k == 1, _field(after, "arts"), 0)
            payoff = _field(after, "carried") + _field(after, "path") // k + alone
            nxt = np.where(last, _KIND_END | payoff << _SHIFT["carried"], nxt)
        return np.ones(len(codes), bool), weights.T, nxt.T


def _level_graph(cache: dict[Any, Any], deck: RoundDeck, others: tuple[int, ...],
                 solo: IncanGoldTurnModel) -> IncanGoldLevelGraph | None:
    """The level graph of ``deck`` with ``others``, built once per model."""
    key = ("graph", others)
    if key not in cache:
        try:
            cache[key] = IncanGoldLevelGraph(deck, others, solo=solo)
        except ImportError:  # pragma: no cover - the in-browser build may lack NumPy
            cache[key] = None
    return cache[key]


def deck_states(solo: IncanGoldTurnModel, state: IGState) -> int:
    """How many decks a round reaches from ``state``'s deck: the trap structures reachable
    from its structure times the treasure and artifact sets within it (each subset)."""
    struct, tcode, amask = state[1:4]
    key = ("reach", struct)
    structs = solo._cache.get(key)  # noqa: SLF001 - the model's own cache
    if structs is None:
        structs = solo._cache[key] = len(reachable_structs(struct))  # noqa: SLF001
    treasures = 1
    for _ in GEMS:
        treasures *= tcode % 3 + 1
        tcode //= 3
    return structs * treasures * 2 ** amask.bit_count()


def estimate_states(solo: IncanGoldTurnModel, state: IGState,
                    others: tuple[int, ...]) -> int | None:
    """About how many states a solve from ``state`` reaches (it sizes the progress bar and
    refuses absurd positions up front; measured within 0.2-7x, mostly above).

    Alone, the proved stop rule leaves about 15 % of :func:`deck_states` to solve (0.13-0.15
    from round starts, fewer later in a round).  Each other explorer who leaves at a positive
    threshold multiplies that: the gems left behind by the shares and path splits make the
    amount explorer 0 carries differ between orders of the same cards (measured: one threshold
    10 about x15, thresholds 5 and 10 about x33, seven different thresholds about x170;
    explorers sharing a threshold leave together and add less)."""
    if state[0] == "end":
        return 1
    solo_states = max(1, deck_states(solo, state) * 15 // 100)
    if len(state) == 5 or not others:
        return solo_states
    inside = state[5] if state[0] == "in" else (1 << len(others)) - 1
    thresholds = [t for j, t in enumerate(others) if inside >> j & 1]
    distinct = len({t for t in thresholds if t > 0})
    factor = 12 * distinct ** 2 / (1 + 0.15 * (len(thresholds) - distinct))
    return int(solo_states * max(1.0, factor))
