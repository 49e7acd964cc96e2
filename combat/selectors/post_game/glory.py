"""The post-game's Use Glory step (CAMPAIGN_PHASE.md step 7 "Use Glory"; "Buying, selling, Glory").

"Glory Points are spent on Glory Items, mercenaries and other benefits." A spend is paid from the warband's
Glory in full, as a purchase is from the Strongbox: the Glory the step starts from is the warband's, with what the
earlier steps bring (a Papal States warband's 4 for calling Reinforcements), and a spend the Glory cannot pay,
counting what this post-game already planned, is refused (combat.rules.glory_left).

Stored: the planned spends (`PostGameGlory`) and `PostGame.glory_passed`. The Glory before and after is worked
out again each time (one query for the spends, whatever the roster's size).

The whole step in one place: `read` returns its part (`GloryRead`) and its blockers, `done` says whether the
wizard goes on past it, and `STEP` is its entry in the registry (title, page, form, and the service hooks that
write it at Apply and take it back at Revert: combat/services/post_game/glory.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from combat import rules
from combat.models import PostGameGlory
from combat.selectors.post_game import money, rows
from combat.selectors.post_game.base import PostGameStep, StepRead

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState


@dataclass(frozen=True)
class GloryLine:
    """One planned spend, as the pages and the ledger read it."""

    spend: PostGameGlory
    words: str

    @property
    def id(self) -> int:
        return self.spend.pk

    @property
    def glory(self) -> int:
        return self.spend.glory


@dataclass(frozen=True)
class GloryRead:
    glory_before: int
    glory_word: str = "Glory"
    gained: int = 0  # of it, what the earlier steps bring (the Papal States' Reinforcements)
    lines: tuple[GloryLine, ...] = ()
    holders: tuple = ()  # the fighters who may carry a Glory Item
    passed: bool = False
    problems: tuple[str, ...] = ()

    @property
    def spent(self) -> int:
        return sum(line.glory for line in self.lines)

    @property
    def glory_after(self) -> int:
        return rules.glory_left(glory=self.glory_before, costs=[line.glory for line in self.lines])

    @property
    def short(self) -> bool:
        return self.glory_after < 0

    def shortfall_words(self, cost: int) -> str:
        return (
            f"the warband has {self.glory_before} {self.glory_word} and this post-game already spends "
            f"{self.spent}, so {self.glory_before - self.spent} is left: it cannot pay {cost}"
        )

    @property
    def sentence(self) -> str | None:
        if not self.lines:
            return None
        return "Use Glory: " + "; ".join(line.words for line in self.lines) + "."


def words(spend: PostGameGlory, glory: str = "Glory") -> str:
    """A spend in a player's words: "Glory Item Blessed Icon for 5 Glory (Brother Marcus)"."""
    cost = f"{spend.glory} {glory}"
    if spend.kind == PostGameGlory.Kind.ITEM:
        where = spend.holder.name if spend.holder_id else "the Arsenal"
        return f"Glory Item {spend.name} for {cost} ({where})"
    if spend.kind == PostGameGlory.Kind.MERCENARY:
        kind = f", {spend.fighter_type}" if spend.fighter_type else ""
        return f"Hired the mercenary {spend.name}{kind} for {cost}"
    return f"{spend.name} for {cost}: {spend.benefit}"


def spends(state: PostGameState) -> list[PostGameGlory]:
    """The spends planned in this attempt, in the order they were added (one query)."""
    live = state.post_game
    if live is None:
        return []
    return rows.held_rows(PostGameGlory, live)


def read(state: PostGameState) -> StepRead:
    """The Glory before and after the plan, who may carry a Glory Item, and what stops the Apply."""
    if state.problem:
        return StepRead()
    live = state.post_game
    reinforcements = state.reinforcements
    gained = getattr(reinforcements, "glory", 0) if reinforcements is not None else 0
    glory_word = state.terms.glory
    active, _gone = money.after_trauma(state)
    lines, problems = [], []
    for spend in spends(state):
        if spend.holder_id is not None and spend.holder_id not in active:
            problems.append(f"{spend.holder.name} is no longer on the roster to carry {spend.name}.")
        lines.append(GloryLine(spend, words(spend, glory_word)))
    step = GloryRead(
        state.warband.glory + gained,
        glory_word,
        gained,
        lines=tuple(lines),
        holders=tuple(fighter for fighter in state.fighters if fighter.pk in active),
        passed=bool(live is not None and live.glory_passed),
        problems=tuple(problems),
    )
    blockers = [f"Use Glory: {problem}" for problem in problems]
    if step.short:
        blockers.append(
            f"Use Glory: the spends cost {step.spent} {glory_word}, more than the {step.glory_before} the "
            "warband has; take one back."
        )
    return StepRead(step, tuple(blockers))


def done(state: PostGameState) -> bool:
    """The page was passed (spending Glory is optional)."""
    step = state.glory
    return step is None or step.passed


STEP = PostGameStep(
    "glory",
    "Use Glory",
    "post_game_glory",
    done,
    read=read,
    form="combat.forms.post_game_glory.GlorySpendForm",
    apply="combat.services.post_game.glory.apply_part",
    revert="combat.services.post_game.glory.revert_part",
    view="combat.views.post_game.glory.post_game_glory",
    summary="combat.services.post_game.glory.summary_part",
)
