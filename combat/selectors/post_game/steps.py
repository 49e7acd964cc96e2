"""The post-game's steps, one object each (`PostGameStep`), in the order the wizard takes them.

A step says who it is (its key, its title in the campaign's words, its page's URL name, its form), how it reads
its part of the post-game (`read(state) -> StepRead`: it returns its part and its blockers, it changes nothing),
whether it is done (where the wizard picks up), and what it writes at Apply and takes back at Revert (the dotted
paths of its service's hooks: a selector names them, the services call them). The step bar, the next-step links,
`current_step`, the forms' hidden `step`, the Review, the Apply, the Revert and the history read this list.

A game system's post-game is a tuple of these entries (`steps_for`); adding a step is its module, which defines
its `STEP`, and one line in `TRENCH_CRUSADE` (docs/architecture.md, "Where to add a step").
"""

from __future__ import annotations

from combat.selectors.post_game import (
    advancement,
    dismiss,
    exploration,
    glory,
    promotions,
    reinforcements,
    trade,
)
from combat.selectors.post_game.base import PostGameState, PostGameStep, StepRead

__all__ = ["POST_GAME_STEPS", "TRENCH_CRUSADE", "PostGameStep", "StepRead", "first_open", "step", "steps_for"]


def _started(state: PostGameState) -> bool:
    return state.post_game is not None


def _troops_done(state: PostGameState) -> bool:
    return state.troops_done


def _elites_done(state: PostGameState) -> bool:
    return state.elites_done


def _experience_done(state: PostGameState) -> bool:
    return not any(casualty.waiting_for == "d3" for casualty in state.casualties)


def _review_done(state: PostGameState) -> bool:
    return True  # the wizard's last page: it stops there


FORMS = "combat.forms"
SERVICES = "combat.services.post_game"
PAGES = "combat.views.post_game.pages"

OUT_OF_ACTION = PostGameStep(
    "out-of-action",
    "Out of Action",
    "post_game_out_of_action",
    _started,
    form=f"{FORMS}.postgame.OutOfActionForm",
    gate=True,
    view=f"{PAGES}.post_game_out_of_action",
)
TROOPS = PostGameStep(
    "troops",
    "{troops}",
    "post_game_troops",
    _troops_done,
    form=f"{FORMS}.postgame.RollForm",
    gate=True,
    view=f"{PAGES}.post_game_troops",
)
ELITES = PostGameStep(
    "elites",
    "{elite} fighters",
    "post_game_elites",
    _elites_done,
    form=f"{FORMS}.postgame.RollForm",
    gate=True,
    view=f"{PAGES}.post_game_elites",
)
EXPERIENCE = PostGameStep(
    "experience",
    "Experience",
    "post_game_experience",
    _experience_done,
    form=f"{FORMS}.postgame.ExperienceForm",
    view=f"{PAGES}.post_game_experience",
)


def _later(module, key: str, title: str, form: str | None, service: str, *, summary=False) -> PostGameStep:
    return PostGameStep(
        key,
        title,
        f"post_game_{key}",
        module.done,
        read=module.read,
        form=form,
        apply=f"{SERVICES}.{service}.apply_part",
        revert=f"{SERVICES}.{service}.revert_part",
        summary=f"{SERVICES}.{service}.summary_part" if summary else None,
        view=f"combat.views.post_game.{service}.post_game_{key}",
    )


ADVANCEMENT = _later(
    advancement, "advancement", "Advancement", f"{FORMS}.post_game_advancement.AdvancementForm", "advancement"
)
PROMOTIONS = _later(
    promotions, "promotions", "Promotions", f"{FORMS}.post_game_promotions.PromotionDiceForm", "promotions"
)
DISMISS = _later(
    dismiss, "dismiss", "Dismiss the wounded", f"{FORMS}.post_game_promotions.DismissForm", "dismiss"
)
REINFORCEMENTS = _later(
    reinforcements,
    "reinforcements",
    "Reinforcements",
    f"{FORMS}.post_game_money.PurchaseForm",
    "reinforcements",
    summary=True,
)
EXPLORATION = _later(
    exploration,
    "exploration",
    "Exploration",
    f"{FORMS}.post_game_exploration.ExplorationRollForm",
    "exploration",
    summary=True,
)
TRADE = _later(trade, "trade", "Hire & Trade", f"{FORMS}.post_game_money.PurchaseForm", "trade", summary=True)
REVIEW = PostGameStep(
    "review", "Review and apply", "post_game_review", _review_done, view=f"{PAGES}.post_game_review"
)

# The Trench Crusade post-battle sequence (CAMPAIGN_PHASE.md; docs/rules.md): the Trauma Step (Out of Action,
# Troops, ELITE fighters), Experience, Advancement, Promotions, Dismissing, then steps 4 (Reinforcements, which
# skips 5), 5 (Exploration), 6 (Hire & Trade) and 7 (Use Glory); then the Review.
TRENCH_CRUSADE: tuple[PostGameStep, ...] = (
    OUT_OF_ACTION,
    TROOPS,
    ELITES,
    EXPERIENCE,
    ADVANCEMENT,
    PROMOTIONS,
    DISMISS,
    REINFORCEMENTS,
    EXPLORATION,
    TRADE,
    glory.STEP,
    REVIEW,
)
# Every step any preset's post-game may take (the forms' hidden `step` choices, the URLs).
POST_GAME_STEPS = TRENCH_CRUSADE


def steps_for(campaign) -> tuple[PostGameStep, ...]:
    """The post-game's steps for this campaign's game system: every preset takes the Trench Crusade sequence."""
    return TRENCH_CRUSADE


def step(key: str, campaign=None) -> PostGameStep:
    """The step with this key (KeyError for none)."""
    found = next((entry for entry in steps_for(campaign) if entry.key == key), None)
    if found is None:
        raise KeyError(key)
    return found


def first_open(state: PostGameState, steps: tuple[PostGameStep, ...]) -> str:
    """Where the owner picks up the wizard: the first step with something left to do."""
    return next((entry.key for entry in steps if not entry.done(state)), steps[-1].key)
