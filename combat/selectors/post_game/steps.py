"""The post-game's steps, one object each (`PostGameStep`), in the order the wizard takes them.

A step says who it is (its key, its title in the campaign's words, its page's URL name, its form), how it reads
its part of the post-game (`read(state) -> StepRead`: it returns its part and its blockers, it changes nothing),
whether it is done (where the wizard picks up), and what it writes at Apply and takes back at Revert (the dotted
paths of its service's hooks: a selector names them, the services call them). The step bar, the next-step links,
`current_step`, the forms' hidden `step`, the Review, the Apply, the Revert and the history read this list.

A game system's post-game is a tuple of these entries (`steps_for`): which steps it takes is a rule decision, the
engine's (`rules.post_game_sequence`: the preset's own steps, adjusted by the campaign's house-rule switches); this
module turns the engine's keys into entries. An attempt keeps the steps it opened with (`PostGame.steps`), so a
switch changed later applies to the post-games not started yet. Adding a step is its module, which defines its
`STEP`, one line in `POST_GAME_STEPS` and its key in the engine's sequence (docs/architecture.md, "Where to add a
step").
"""

from __future__ import annotations

from dataclasses import dataclass

from combat import rules
from combat.models import PostGame
from combat.selectors.post_game import (
    advancement,
    dismiss,
    exploration,
    glory,
    harsh_lessons,
    injuries,
    promotions,
    reinforcements,
    rows,
    trade,
)
from combat.selectors.post_game.base import PostGameState, PostGameStep, StepRead

__all__ = [
    "FALLOUT_FACTIONS",
    "POST_GAME_STEPS",
    "TRENCH_CRUSADE",
    "PostGameStep",
    "StepRead",
    "SwitchRow",
    "campaign_step_keys",
    "first_open",
    "post_game_steps",
    "post_game_switch_rows",
    "step",
    "steps_for",
    "takes_step",
]


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
# Every step any preset's post-game may take, in the order the wizard takes them (the forms' hidden `step`
# choices, the URLs): Trench Crusade's sequence with Fallout: Factions' own steps after the Trauma Step.
POST_GAME_STEPS: tuple[PostGameStep, ...] = (
    *TRENCH_CRUSADE[:3],
    harsh_lessons.STEP,
    injuries.STEP,
    *TRENCH_CRUSADE[3:],
)
_BY_KEY = {entry.key: entry for entry in POST_GAME_STEPS}
# The Fallout: Factions post-game its own texts support (rules.PRESET_POST_GAME): Out of Action, Harsh Lessons,
# the Injuries carried on the roster, then the Review.
FALLOUT_FACTIONS: tuple[PostGameStep, ...] = tuple(
    _BY_KEY[key] for key in rules.post_game_sequence(preset="fallout_factions")
)


def campaign_step_keys(campaign) -> tuple[str, ...]:
    """The keys of the steps a post-game of this campaign takes if it opens now: its preset's, as its house rules
    switch them (`rules.post_game_sequence`). Switches the engine no longer accepts (a preset changed since they
    were set) leave the preset's own steps."""
    try:
        return rules.post_game_sequence(preset=campaign.preset, switches=campaign.post_game_switches or {})
    except ValueError:
        return rules.post_game_sequence(preset=campaign.preset)


def steps_for(campaign, post_game: PostGame | None = None) -> tuple[PostGameStep, ...]:
    """The post-game's steps: those its attempt opened with (`post_game`), else the campaign's as they stand now."""
    if post_game is not None and post_game.steps:
        keys = tuple(post_game.steps)
    elif campaign is None:
        return TRENCH_CRUSADE  # no campaign: the default preset's
    else:
        keys = campaign_step_keys(campaign)
    found = tuple(_BY_KEY[key] for key in keys if key in _BY_KEY)
    return TRENCH_CRUSADE if found == TRENCH_CRUSADE else found


def post_game_steps(*, player) -> tuple[PostGameStep, ...]:
    """The steps of this warband's post-game in this game: its live attempt's, else the campaign's now (one
    query)."""
    return steps_for(player.game.campaign, rows.live_attempt_row(player))


def takes_step(state: PostGameState, key: str) -> bool:
    """Whether this post-game takes the step with this key (no query)."""
    return any(entry.key == key for entry in steps_for(state.campaign, state.post_game))


def step(key: str, campaign=None) -> PostGameStep:
    """The registered step with this key, whatever the campaign takes (KeyError for none)."""
    return _BY_KEY[key]


def first_open(state: PostGameState, steps: tuple[PostGameStep, ...]) -> str:
    """Where the owner picks up the wizard: the first step with something left to do."""
    return next((entry.key for entry in steps if not entry.done(state)), steps[-1].key)


@dataclass(frozen=True)
class SwitchRow:
    """One house-rule switch as the campaign's data page shows it: on or off now, and the preset's own."""

    switch: rules.PostGameSwitch
    on: bool
    preset_on: bool

    @property
    def key(self) -> str:
        return self.switch.key

    @property
    def house_rule(self) -> bool:
        return self.on != self.preset_on


def post_game_switch_rows(campaign) -> tuple[SwitchRow, ...]:
    """Every switch of the post-game with whether this campaign's post-game takes it (no query)."""
    keys = set(campaign_step_keys(campaign))
    own = rules.preset_switches_on(campaign.preset)
    return tuple(
        SwitchRow(switch, switch.steps[0] in keys, switch.key in own) for switch in rules.POST_GAME_SWITCHES
    )
