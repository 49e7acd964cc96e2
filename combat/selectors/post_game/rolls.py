"""The stored rolls of a post-game as its pages show them, and the roll a fighter still needs."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ObjectDoesNotExist

from campaigns.models import OutOfAction
from campaigns.people import display_name
from combat import rules
from combat.models import DiceRoll, PostGameFighter, PostGameRoll
from combat.rules.campaign_advancement import skill_roll_total
from combat.rules.casualties import casualty_roll
from combat.selectors.post_game import rows


@dataclass(frozen=True)
class RollNeeded:
    """The next roll a fighter needs: what for, which one (2 for the first reroll), and the dice it takes."""

    purpose: str
    sequence: int
    sides: int
    dice: int

    @property
    def words(self) -> str:
        if self.purpose == PostGameRoll.Purpose.SURVIVAL:
            return "Survival Roll: one D6"
        if self.purpose == PostGameRoll.Purpose.BITTER_LESSONS:
            return "Bitter Lessons: one D3 for extra XP"
        if self.sequence > 1:
            return "Roll again: D66 (RULING T-5)"
        return "Trauma roll: D66, the first D6 the tens, the second the units"

    @property
    def is_d66(self) -> bool:
        return self.dice == 2


@dataclass(frozen=True)
class LoggedRoll:
    """A stored roll as the pages show it."""

    roll: PostGameRoll

    @property
    def dice(self):
        return self.roll.dice_roll

    @property
    def value(self) -> int:
        """The number rolled: a D66 read from its two faces by the engine (RULING T-3), else the one face."""
        faces = self.dice.faces
        if self.roll.purpose == PostGameRoll.Purpose.ADVANCEMENT:
            return skill_roll_total(faces)
        return rules.d66_from_faces(*faces) if len(faces) == 2 else faces[0]

    @property
    def what(self) -> str:
        if self.roll.purpose == PostGameRoll.Purpose.SURVIVAL:
            return "Survival Roll (D6)"
        if self.roll.purpose == PostGameRoll.Purpose.BITTER_LESSONS:
            return "Bitter Lessons (D3)"
        if self.roll.purpose == PostGameRoll.Purpose.PROMOTION:
            return f"Promotion Die {self.roll.sequence} (D6)"
        if self.roll.purpose == PostGameRoll.Purpose.ADVANCEMENT:
            return (
                f"Skill Advancement {(self.roll.sequence + 1) // 2}, chart {2 - self.roll.sequence % 2} (2D6)"
            )
        return "Trauma roll (D66)" if self.roll.sequence == 1 else f"Reroll {self.roll.sequence - 1} (D66)"

    @property
    def struck(self):
        """The roll this one replaces (a voided server roll, a corrected typed die), None for a first roll: the
        pages show it struck through with who, when and why."""
        try:
            return self.dice.replaces
        except self.dice.__class__.replaces.RelatedObjectDoesNotExist:
            return None

    @property
    def who(self) -> str:
        user = self.dice.rolled_by
        # The display name, as every other page and the history say it (campaigns/people.py).
        name = display_name(user) if user is not None else "someone"
        if self.dice.source == "server":
            return f"rolled by the server for {name}"
        return f"entered from the table by {name}"


# The order the engine reads a fighter's rolls (RULING T-1 per fighter): the Survival D6, or the D66 rolls in
# sequence, then the D3 of Bitter Lessons, which the engine asks for only once the D66 result is settled.
_READING_ORDER = {
    PostGameRoll.Purpose.SURVIVAL: 0,
    PostGameRoll.Purpose.TRAUMA: 1,
    PostGameRoll.Purpose.BITTER_LESSONS: 2,
}
# The later steps' rolls of a fighter, listed after its Trauma Step's (a Skill Advancement 2D6 each).
_LATER_ORDER = {PostGameRoll.Purpose.ADVANCEMENT: 3, PostGameRoll.Purpose.PROMOTION: 4}


# The rolls of the Trauma Step (and its Bitter Lessons D3): the casualties' chains read these and no other; the
# other steps' rolls (Skill Advancement 2D6, Promotion Dice, Exploration Dice) are read by their own steps.
TRAUMA_STEP_PURPOSES = tuple(_READING_ORDER)


def logged_rolls(rolls: list[PostGameRoll]) -> list[LoggedRoll]:
    """A fighter's stored rolls in the order the engine reads them."""
    return [
        LoggedRoll(roll)
        for roll in sorted(
            rolls,
            key=lambda roll: (
                _READING_ORDER.get(roll.purpose, _LATER_ORDER.get(roll.purpose, 9)),
                roll.sequence,
            ),
        )
    ]


def needed_after(rolls: list[LoggedRoll], sides: int, *, elite: bool) -> RollNeeded:
    """The roll the engine asked for when the stored faces ran out (`DiceExhausted.sides`): which one and its dice
    are the engine's (`casualty_roll`); its sequence follows the rolls of that purpose stored already (a
    Troop's Survival Roll is made once)."""
    needed = casualty_roll(elite=elite, sides_asked=sides)
    purpose = PostGameRoll.Purpose(needed.kind)
    done = sum(1 for roll in rolls if roll.roll.purpose == purpose)
    sequence = 1 if purpose == PostGameRoll.Purpose.SURVIVAL else done + 1
    return RollNeeded(purpose, sequence, needed.sides, needed.dice)


@dataclass(frozen=True)
class FighterRolls:
    """One fighter's counted rolls, as the applied overview lists them with "Correct this die", "Void", "Reopen"
    and, once reopened, its Out of Action mark and "Settle"."""

    id: int
    name: str
    rolls: list[LoggedRoll]
    reopened: bool = False
    marked: bool = True  # still on the Out of Action list


def applied_rolls(post_game) -> list[FighterRolls]:
    """An applied post-game's rolls that count, by fighter in the order they were first rolled, and every reopened
    fighter (its rolls may all be set aside while it is off the Out of Action list). Three queries."""
    stored = (
        # A fighter's own rolls: the Trauma Step's and its Skill Advancement 2D6; the warband's Promotion Dice and
        # Exploration Dice are their steps' to show.
        PostGameRoll.objects.filter(
            post_game=post_game, purpose__in=(*TRAUMA_STEP_PURPOSES, PostGameRoll.Purpose.ADVANCEMENT)
        )
        .select_related("fighter", "dice_roll__rolled_by", "dice_roll__replaces__status_by")
        .order_by("id")
    )
    reopened = set(
        PostGameFighter.objects.filter(post_game=post_game, reopened=True).values_list(
            "fighter_id", flat=True
        )
    )
    marked = set(
        OutOfAction.objects.filter(player_id=post_game.player_id).values_list("fighter_id", flat=True)
    )
    by_fighter: dict[int, list[PostGameRoll]] = {}
    names: dict[int, str] = {}
    for roll in stored:
        names[roll.fighter_id] = roll.fighter.name
        if roll.dice_roll.status == DiceRoll.Status.COUNTED or roll.fighter_id in reopened:
            by_fighter.setdefault(roll.fighter_id, [])
            if roll.dice_roll.status == DiceRoll.Status.COUNTED:
                by_fighter[roll.fighter_id].append(roll)
    return [
        FighterRolls(pk, names[pk], logged_rolls(rolls), pk in reopened, pk in marked)
        for pk, rolls in by_fighter.items()
    ]


def counted_rolls(state, purpose: str) -> list[PostGameRoll]:
    """The attempt's rolls of one purpose that count, in the order they were stored (read with the state's)."""
    return [roll for roll in state.counted_rolls if roll.purpose == purpose]


def _replaced(die: DiceRoll) -> DiceRoll | None:
    """The roll this one stands in for (read with it through `select_related("dice_roll__replaces")`)."""
    try:
        return die.replaces
    except ObjectDoesNotExist:
        return None


def attach_people(rolls, answers) -> None:
    """Who rolled, who corrected, who offered and answered a ransom, whose warband is the captor: the users the
    rolls and answers name, read in one query and set on them (joining a user per relation costs more)."""
    dice = [roll.dice_roll for roll in rolls]
    replaced = [struck for struck in map(_replaced, dice) if struck is not None]
    captors = [answer.captor for answer in answers if answer.captor_id is not None]
    wanted = {die.rolled_by_id for die in dice} | {die.status_by_id for die in replaced}
    wanted |= {answer.ransom_offered_by_id for answer in answers} | {
        answer.ransom_answered_by_id for answer in answers
    }
    wanted |= {captor.owner_id for captor in captors}
    wanted.discard(None)
    people = rows.user_rows(wanted) if wanted else {}
    for die in dice:
        die.rolled_by = people.get(die.rolled_by_id)
    for die in replaced:
        die.status_by = people.get(die.status_by_id)
    for answer in answers:
        answer.ransom_offered_by = people.get(answer.ransom_offered_by_id)
        answer.ransom_answered_by = people.get(answer.ransom_answered_by_id)
    for captor in captors:
        captor.owner = people.get(captor.owner_id)
