"""What a screen reader hears: one polite live region per table and the sentences it says.

:class:`LiveRegion` is a small anywidget: one persistent ``<div role="status"
aria-live="polite" aria-atomic="true">`` (visually hidden) whose text is replaced.  An
ipywidgets ``HTML`` widget rebuilds its inner HTML on every change, so a live region inside it
is a *new* element each time, which screen readers often do not announce; this element stays.
Each sentence is written after the region was emptied, so the same sentence twice is heard
twice; ``data-serial`` counts the sentences (browser tests wait for it).

The sentences are built here from what the page already shows (the engine's view, the log
lines in the message, the coach panel's exact ``p_bust_exact`` and ``recommended``): nothing is
computed a second time.  ``"7♥: turn total 19. Next draw busts 3 in 25. Best: Stop."``
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import anywidget
from traitlets import Int, Unicode

#: the largest denominator read out as "a in b"; beyond it the chance is read as a percentage
MAX_SPOKEN_DENOMINATOR = 10_000

_REGION_JS = """
function render({ model, el }) {
  const region = document.createElement("div");
  region.className = "pushluck-live";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  // what was said before the view was drawn is there from the start (not announced)
  region.textContent = model.get("text");
  region.dataset.serial = String(model.get("serial"));
  el.appendChild(region);
  let timer = null;
  const say = () => {
    clearTimeout(timer);
    region.textContent = "";
    timer = setTimeout(() => {
      region.textContent = model.get("text");
      region.dataset.serial = String(model.get("serial"));
    }, 120);
  };
  model.on("change:serial", say);
  return () => { clearTimeout(timer); model.off("change:serial", say); };
}
export default { render };
"""

_REGION_CSS = """
.pushluck-live { position: absolute !important; width: 1px; height: 1px; padding: 0;
  margin: -1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%);
  white-space: nowrap; border: 0; font-size: 16px; }
"""


class LiveRegion(anywidget.AnyWidget):
    """A persistent polite live region (see the module docstring); :meth:`say` replaces its
    text.  ``text`` is the last sentence, ``serial`` how many were said."""

    _esm = _REGION_JS
    _css = _REGION_CSS
    text = Unicode("").tag(sync=True)
    serial = Int(0).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("pushluck-live-holder")

    def say(self, sentence: str) -> None:
        """Announce ``sentence`` (nothing for an empty one)."""
        sentence = " ".join(sentence.split())
        if not sentence:
            return
        with self.hold_sync():
            self.text = sentence
            self.serial = self.serial + 1


def bust_words(p_bust: str) -> str:
    """The coach's exact bust chance (``"3/25"``, as in the panel's ``data-exact``) as words:
    ``"Next draw busts 3 in 25."``; "" when the page shows none (``n/a``)."""
    text = p_bust.strip()
    if not text or text in ("n/a", "none"):
        return ""
    try:
        chance = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return ""
    if chance == 0:
        return "Next draw cannot bust."
    if chance == 1:
        return "Next draw busts for sure."
    if chance.denominator > MAX_SPOKEN_DENOMINATOR:
        return f"Next draw busts {float(chance) * 100:.1f} percent of the time."
    return f"Next draw busts {chance.numerator} in {chance.denominator}."


def draw_sentence(step: str, turn_total: Any) -> str:
    """A player's own draw: ``"7♥: turn total 19."``."""
    return f"{step}: turn total {turn_total}."


def coach_sentence(p_bust: str, best: str) -> str:
    """The coach's key numbers: ``"Next draw busts 3 in 25. Best: Stop."`` (parts the page
    does not show are left out)."""
    parts = [bust_words(p_bust)]
    if best:
        parts.append(f"Best: {best}.")
    return " ".join(p for p in parts if p)


def table_sentence(lead: str, p_bust: str = "", best: str = "") -> str:
    """One announcement: what happened (``lead``), then the coach's numbers."""
    lead = " ".join(lead.split())
    if lead and not lead.endswith((".", "!", "?", "…")):
        lead += "."
    return " ".join(p for p in (lead, coach_sentence(p_bust, best)) if p)


class Announcer:
    """A table's live region and what it said last, so each change is said once.

    :meth:`moment` is called after every refresh with a ``key`` for what the page shows
    (the game, its log length, the message); only a new key is announced.  :meth:`best_known`
    adds the coach's recommendation when it arrives after the sentence (a position worked out
    in the background)."""

    def __init__(self) -> None:
        self.region = LiveRegion()
        self._key: Hashable = None
        self._best = ""
        self._waiting_for_best = False
        self._last_parts: tuple[str, str] = ("", "")

    def say(self, sentence: str) -> None:
        """Announce ``sentence`` now."""
        self.region.say(sentence)

    def moment(self, key: Hashable, lead: str, p_bust: str = "", best: str = "",
               coach_on: bool = False) -> None:
        """Announce ``lead`` and the coach's numbers if ``key`` is new; with ``coach_on`` and
        no ``best`` yet, :meth:`best_known` says it once it is known."""
        if key == self._key:
            return
        self._key = key
        self._best = best
        self._waiting_for_best = coach_on and not best
        self.say(table_sentence(lead, p_bust if coach_on else "", best if coach_on else ""))

    def best_known(self, best: str) -> None:
        """The coach's recommendation, known after the sentence: said if it is new."""
        if not self._waiting_for_best or not best or best == self._best:
            return
        self._best = best
        self._waiting_for_best = False
        self.say(f"Best: {best}.")

    def parts(self, lead: str, detail: str) -> None:
        """Announce ``lead`` and ``detail`` (a card table's message and coach headline),
        leaving out a part already said the time before."""
        lead, detail = " ".join(lead.split()), " ".join(detail.split())
        said_lead, said_detail = self._last_parts
        shown = [lead if lead != said_lead else "", detail if detail != said_detail else ""]
        self._last_parts = (lead, detail)
        self.say(table_sentence(" ".join(p for p in shown if p)))
