"""Which post-battle steps a game system's post-game takes, and which a campaign's house rules switch on or off;
the crew's Harsh Lessons XP as the post-game of a game with no board records it.

Each preset's steps come from its own texts, and no further:

- Trench Crusade's post-battle sequence (003_37ee4a105d59703a.txt "Trauma Step"; CAMPAIGN_PHASE.md): the Trauma
  Step (the Troops' Survival Rolls and the ELITE models' Trauma Table), Experience, Advancement, Promotions,
  Dismissing, Reinforcements, Exploration, Hire & Trade and Use Glory.
- Fallout: Factions: its campaign rules are not among the project's texts. Its texts give only what a game leaves
  behind (000_57a9b0f426546aa5.txt): the models Incapacitated ("removed from play", the post-game's Out of Action,
  RULING D-9), the crew's XP ("Experience: Harsh Lessons": "If a Champion is Incapacitated, its crew earns 1 XP.
  Each crew can only benefit from this rule once per game.", RULING D-11) and the Injuries marked on a Model
  Entry ("Injury": "mark one of the Injury Boxes on its Model Entry"), which the roster carries as they are.

Out of Action opens every post-game and the Review closes it: neither can be switched. Any other step of either
system can be, as a house rule, so long as what it reads is on (Experience reads the Trauma Step's survivors).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .words import possessive

__all__ = [
    "FIRST_STEP",
    "LAST_STEP",
    "PRESET_CAMPAIGN_STAGES",
    "POST_GAME_SWITCHES",
    "PRESET_POST_GAME",
    "CampaignUses",
    "HarshLessonsAward",
    "PostGameSwitch",
    "campaign_uses",
    "harsh_lessons_after_game",
    "post_game_sequence",
    "post_game_switch",
    "preset_switches_on",
]

TRENCH_CRUSADE = "trench_crusade"
FALLOUT_FACTIONS = "fallout_factions"
FIRST_STEP = "out-of-action"
LAST_STEP = "review"


@dataclass(frozen=True)
class PostGameSwitch:
    """One step (or pair of steps) a campaign's house rules switch on or off: its key, its name on the data page,
    the registry's steps it covers, the switches it reads, and the text it comes from."""

    key: str
    name: str
    steps: tuple[str, ...]
    source: str
    needs: tuple[str, ...] = ()


# In the order the post-game takes them; Out of Action comes before and the Review after every one of them. Each
# source is what the data page shows a player: the game and the heading, not the project's files of rules (the
# Trauma Step is 003, Harsh Lessons and Injury 000, the rest CAMPAIGN_PHASE.md, as the module's docstring says).
POST_GAME_SWITCHES: tuple[PostGameSwitch, ...] = (
    PostGameSwitch(
        "trauma",
        "The Trauma Step: the Troops' Survival Rolls and the Trauma Table",
        ("troops", "elites"),
        'Trench Crusade, "Trauma Step"',
    ),
    PostGameSwitch(
        "harsh-lessons",
        "Harsh Lessons: the crew's XP",
        ("harsh-lessons",),
        'Fallout: Factions, "Experience: Harsh Lessons" (RULING D-11)',
    ),
    PostGameSwitch(
        "injuries",
        "Injuries carried on the roster",
        ("injuries",),
        'Fallout: Factions, "Injury"',
    ),
    PostGameSwitch(
        "experience",
        "Experience",
        ("experience",),
        'Trench Crusade, "Experience and Advancement" (RULING X-4)',
        needs=("trauma",),
    ),
    PostGameSwitch(
        "advancement",
        "Advancement",
        ("advancement",),
        'Trench Crusade, "Experience and Advancement"',
        needs=("experience",),
    ),
    PostGameSwitch(
        "promotions",
        "Promotions",
        ("promotions",),
        'Trench Crusade, "Promotions"',
        needs=("experience",),
    ),
    PostGameSwitch(
        "dismiss",
        "Dismissing the wounded",
        ("dismiss",),
        "Trench Crusade, dismissing after the Trauma Step",
        needs=("trauma",),
    ),
    PostGameSwitch(
        "reinforcements",
        "Reinforcements",
        ("reinforcements",),
        "Trench Crusade, the post-battle sequence, step 4",
    ),
    PostGameSwitch(
        "exploration", "Exploration", ("exploration",), "Trench Crusade, the post-battle sequence, step 5"
    ),
    PostGameSwitch("trade", "Hire & Trade", ("trade",), "Trench Crusade, the post-battle sequence, step 6"),
    PostGameSwitch("glory", "Use Glory", ("glory",), "Trench Crusade, the post-battle sequence, step 7"),
)
_BY_KEY = {switch.key: switch for switch in POST_GAME_SWITCHES}

# What each preset's own texts give it (the module's docstring says which texts).
PRESET_POST_GAME: Mapping[str, frozenset[str]] = {
    TRENCH_CRUSADE: frozenset(
        (
            "trauma",
            "experience",
            "advancement",
            "promotions",
            "dismiss",
            "reinforcements",
            "exploration",
            "trade",
            "glory",
        )
    ),
    FALLOUT_FACTIONS: frozenset(("harsh-lessons", "injuries")),
}


def post_game_switch(key: str) -> PostGameSwitch:
    """The switch with this key (`ValueError` names an unknown one)."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ValueError(f"{key!r} is not a post-game step a campaign can switch") from None


def preset_switches_on(preset: str) -> frozenset[str]:
    """The switches a preset's own post-game has on (`ValueError` names an unknown preset)."""
    try:
        return PRESET_POST_GAME[preset]
    except KeyError:
        raise ValueError(f"{preset!r} is not a preset with a post-game") from None


def _switches_on(preset: str, switches: Mapping[str, bool]) -> set[str]:
    on = set(preset_switches_on(preset))
    for key, value in switches.items():
        post_game_switch(key)
        if type(value) is not bool:
            raise ValueError(f"the switch {key!r} is on (True) or off (False), not {value!r}")
        (on.add if value else on.discard)(key)
    return on


def post_game_sequence(*, preset: str, switches: Mapping[str, bool] | None = None) -> tuple[str, ...]:
    """The keys of the post-game's steps, in order: Out of Action, the preset's switches as the campaign's house
    rules leave them (`switches`: switch key -> on or off, where it differs from the preset), then the Review.

    `ValueError` names an unknown switch, a value that is not True or False, and a step switched on without one
    it reads ("Experience reads the Trauma Step: switch it on too")."""
    on = _switches_on(preset, switches or {})
    for key in sorted(on):
        for need in _BY_KEY[key].needs:
            if need not in on:
                raise ValueError(
                    f"“{_BY_KEY[key].name}” reads what “{_BY_KEY[need].name}” decides: switch that on too, "
                    "or this off"
                )
    steps = [step for switch in POST_GAME_SWITCHES if switch.key in on for step in switch.steps]
    return (FIRST_STEP, *steps, LAST_STEP)


# Whether a preset's campaign runs in Trench Crusade's stages (CAMPAIGN_PHASE.md: battles 1 to 12, each with its
# Threshold Value and Field Strength, RULING C-1, and the scenario table of its stage, RULING W-1). Fallout:
# Factions' texts have no campaign stages: its campaigns start with them off, and the organiser may switch them on.
PRESET_CAMPAIGN_STAGES: Mapping[str, bool] = {TRENCH_CRUSADE: True, FALLOUT_FACTIONS: False}


@dataclass(frozen=True)
class CampaignUses:
    """What a campaign's pages show because its preset or its house rules use it: the Promotion Dice tally (the
    Promotions step), Glory (Use Glory), the crew's XP (Harsh Lessons), and the campaign's stages (the Threshold
    Value, the Field Strength and the scenario roll of each stage). `key` tells two of them apart in a cache key."""

    promotion_dice: bool
    glory: bool
    crew_xp: bool
    campaign_stages: bool

    @property
    def key(self) -> str:
        flags = (self.promotion_dice, self.glory, self.crew_xp, self.campaign_stages)
        return "".join("1" if flag else "0" for flag in flags)


def campaign_uses(
    *, preset: str, switches: Mapping[str, bool] | None = None, campaign_stages: bool | None = None
) -> CampaignUses:
    """What a campaign of `preset` uses with its house-rule `switches` (as `post_game_sequence` reads them: a set
    of switches it refuses leaves the preset's own) and its organiser's choice of the campaign's stages
    (`campaign_stages`; None: the preset's own, `PRESET_CAMPAIGN_STAGES`)."""
    try:
        steps = set(post_game_sequence(preset=preset, switches=switches))
    except ValueError:
        steps = set(post_game_sequence(preset=preset))
    if campaign_stages is None:
        campaign_stages = PRESET_CAMPAIGN_STAGES[preset]
    return CampaignUses(
        promotion_dice="promotions" in steps,
        glory="glory" in steps,
        crew_xp="harsh-lessons" in steps,
        campaign_stages=campaign_stages,
    )


@dataclass(frozen=True)
class HarshLessonsAward:
    """A crew's Harsh Lessons in one game: the XP the post-game adds to the crew's XP, and why, in one sentence."""

    xp: int
    earned: bool
    words: str
    rulings: tuple[str, ...] = ("D-11",)


def harsh_lessons_after_game(
    *, crew: str, champions: tuple[str, ...] | list[str], earned_on_the_board: bool
) -> HarshLessonsAward:
    """The crew's Harsh Lessons XP once its game is over (000 "Experience: Harsh Lessons", RULING D-11): 1 XP if at
    least one of its Champions was Incapacitated (`champions`: their names, as the Out of Action list has them),
    never more than once per crew per game. When the board already gave it (`earned_on_the_board`: the game
    was played on the tracker, whose end adds it), the post-game adds nothing more."""
    if type(earned_on_the_board) is not bool:
        raise ValueError(f"earned_on_the_board is True or False, not {earned_on_the_board!r}")
    if any(not isinstance(name, str) or not name for name in champions):
        raise ValueError(f"each Champion is named, not {list(champions)!r}")
    if earned_on_the_board:
        return HarshLessonsAward(
            0,
            True,
            f"{crew} earned its Harsh Lessons XP on the board this game: it was added to the crew's XP at the end "
            "of the game, once per game (RULING D-11).",
        )
    if not champions:
        return HarshLessonsAward(
            0,
            False,
            f"None of {possessive(crew)} Champions was Incapacitated: no Harsh Lessons XP (RULING D-11).",
        )
    names = champions[0] if len(champions) == 1 else f"{', '.join(champions[:-1])} and {champions[-1]}"
    was = "was" if len(champions) == 1 else "were"
    return HarshLessonsAward(
        1,
        True,
        f"{names} {was} Incapacitated: {crew} earns 1 crew XP, once per game however many Champions fell "
        "(RULING D-11).",
    )
