"""The post-game's Exploration step (CAMPAIGN_PHASE.md "Looting and Exploration"; RULINGS E-1 to E-4): the
Exploration Dice by battles fought, the winner's one reroll, the modifier, the score, the Location found (or the
choice between two) and the loot, worked out by the engine from the stored rolls and answers.

Nothing is stored but the dice (`PostGameRoll`s with no fighter: `exploration` sequence 1, `exploration_reroll`
sequence 1) and the answers on the `PostGame` row (`exploration_modifier`, `exploration_reroll_die`,
`exploration_reroll_declined`, `location_code`); the score, the Location and the loot are read again each time.

The Location tables are the campaign data in force when the dice were rolled (before the roll: the newest), so an
edit of the tables afterwards does not change a roll already made. Two queries whatever the campaign's size (the
dice come with the fighters' rolls, `PostGameState.warband_rolls`).

Reinforcements (CAMPAIGN_PHASE.md: "taking them skips step 5") set `Exploration.skipped` with the
reason: the step is then done, with no dice, no Location and no loot.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from django.db import connection

from campaigns.models import Game, GamePlayer
from combat import rules
from combat.models import DiceRoll, PostGameRoll
from combat.models.campaign_data import LOCATION_TABLES
from combat.models.postgame import MAX_EXPLORATION_MODIFIER
from combat.rules.campaign_exploration import exploration_reroll_open
from combat.selectors.campaign_data import campaign_data_as_of, current_campaign_data
from combat.selectors.post_game.base import StepRead
from combat.selectors.post_game.ransom import StrongboxChange
from rosters.models import FoundLocation

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState

PURPOSES = (PostGameRoll.Purpose.EXPLORATION, PostGameRoll.Purpose.EXPLORATION_REROLL)


@dataclass(frozen=True)
class LocationChance:
    """One Location of the allowed tables and the chance the Exploration Dice find it, in words."""

    location: rules.Location
    words: str

    @property
    def table_name(self) -> str:
        return LOCATION_TABLES.get(self.location.table, self.location.table)


@dataclass
class Exploration:
    """The Exploration of one warband after one battle, as the page, the Review and the Apply read it."""

    battles_fought: int
    dice: int
    allowed: tuple[str, ...]  # the tables the battle count allows (RULING E-1)
    tables: dict[str, rules.LocationTable]  # the campaign's tables among them, as they were at the roll
    modifier: int
    winner: bool
    currency: str
    roll: PostGameRoll | None = None
    reroll: PostGameRoll | None = None
    reroll_die: int | None = None
    declined: bool = False
    chosen: str = ""
    found_before: frozenset[str] = frozenset()
    faces: tuple[int, ...] = ()  # the faces that stand, the winner's reroll in place
    score: int | None = None
    found: tuple[rules.Location, ...] = ()
    already_found: tuple[rules.Location, ...] = ()  # matched, but this warband found them in an earlier game
    odds: list[LocationChance] = field(default_factory=list)
    skipped: str | None = None  # why the step is skipped (Reinforcements), None when it is not

    @property
    def rolled(self) -> bool:
        return self.roll is not None

    @property
    def modifier_limit(self) -> int:
        """How far skills and items may move the score, either way (the model's limit, for the page's input)."""
        return MAX_EXPLORATION_MODIFIER

    @property
    def die_numbers(self) -> range:
        return range(1, self.dice + 1)

    @property
    def missing(self) -> tuple[str, ...]:
        """The allowed tables the campaign keeps no rows of: no Location can be found on them."""
        return tuple(table for table in self.allowed if table not in self.tables)

    @property
    def allowed_words(self) -> str:
        return " or ".join(LOCATION_TABLES[table] for table in self.allowed)

    @property
    def reroll_open(self) -> bool:
        """RULING E-2: the winner may still reroll one die, or decline."""
        return exploration_reroll_open(
            won=self.winner, rolled=self.rolled, rerolled=self.reroll is not None, declined=self.declined
        )

    @property
    def choice_needed(self) -> bool:
        """RULING E-4: one Location on each of two tables matches, and the player has not picked one."""
        return len(self.found) > 1 and self.location is None

    @property
    def location(self) -> rules.Location | None:
        """The Location the warband takes: the only one found, or the one picked of two."""
        if len(self.found) == 1:
            return self.found[0]
        return next((location for location in self.found if location.code == self.chosen), None)

    @property
    def loot(self) -> int:
        """RULING E-3: 10 ducats per point, found or not."""
        return rules.loot(self.score) if self.score is not None and not self.skipped else 0

    @property
    def done(self) -> bool:
        return bool(self.skipped) or (self.rolled and not self.reroll_open and not self.choice_needed)

    @property
    def score_words(self) -> str:
        """ "4 dice, 3+5+2+6 = 16, +1 = 17" (the rerolled die named), the rule behind the score in figures."""
        faces = "+".join(str(face) for face in self.faces)
        words = f"{self.dice} dice, {faces}"
        if self.reroll is not None:
            first = self.roll.dice_roll.faces[self.reroll_die - 1]
            words += f" (die {self.reroll_die} rerolled: {first} → {self.faces[self.reroll_die - 1]})"
        total = sum(self.faces)
        words += f" = {total}"
        if self.modifier:
            words += f", {self.modifier:+d} = {self.score}"
        if self.score != total + self.modifier:
            words += " (never below 0, RULING E-3)"
        return words

    @property
    def found_words(self) -> str:
        """What the score finds, in a player's words (RULING E-4)."""
        location = self.location
        if location is not None:
            return f"found {_the(location.name)} ({LOCATION_TABLES[location.table]})"
        if self.found:
            names = " or ".join(f"{_the(loc.name)} ({LOCATION_TABLES[loc.table]})" for loc in self.found)
            return f"found {names}: one to choose (RULING E-4)"
        if self.already_found:
            names = ", ".join(_the(loc.name) for loc in self.already_found)
            return f"no Location: {names} is found already (RULING E-4)"
        return "no Location found"

    @property
    def sentence(self) -> str | None:
        """ "Exploration: 4 dice, 3+5+2+6 = 16, +1 = 17: found the Drowned Chapel (Rare); loot 170 ducats"."""
        if self.skipped:
            return f"Exploration skipped: {self.skipped}."
        if self.score is None:
            return None
        return f"Exploration: {self.score_words}: {self.found_words}; loot {self.loot} {self.currency}."


def _the(name: str) -> str:
    return name if name.lower().startswith("the ") else f"the {name}"


def record(state: PostGameState) -> tuple[int, frozenset[str]]:
    """`read_record`, read once for the state when first asked (Reinforcements read the battle count too, RULING
    C-1)."""
    return state.record if state.record is not None else read_record(state)


# RULING E-1 and E-4 in one round trip. Plain SQL: Django takes longer to compile the same read (a count in a
# subquery and an aggregate) than PostgreSQL takes to answer it, and every page of the wizard makes it.
RECORD_SQL = """
    SELECT (SELECT count(*) FROM {players} p JOIN {games} g ON g.id = p.game_id
             WHERE p.warband_id = %(warband)s AND g.number <= %(number)s AND g.status <> %(in_progress)s),
           ARRAY(SELECT code FROM {locations} WHERE warband_id = %(warband)s AND game_id IS DISTINCT FROM %(game)s)
"""


def read_record(state: PostGameState) -> tuple[int, frozenset[str]]:
    """RULING E-1: the warband's games recorded up to this one, this one included; RULING E-4: the Locations it
    found in its other games (or kept without a game), never found twice. One query."""
    sql = RECORD_SQL.format(
        players=GamePlayer._meta.db_table, games=Game._meta.db_table, locations=FoundLocation._meta.db_table
    )
    params = {
        "warband": state.warband.pk,
        "number": state.game.number,
        "in_progress": Game.Status.IN_PROGRESS,
        "game": state.game.pk,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        played, codes = cursor.fetchone()
    return max(played, 1), frozenset(codes)


def _rolls(rolls) -> dict[str, PostGameRoll]:
    """The Exploration Dice and the reroll that count, by purpose."""
    return {roll.purpose: roll for roll in rolls if roll.purpose in PURPOSES and roll.dice_roll.counts}


def _tables(state: PostGameState, roll: PostGameRoll | None, allowed) -> dict[str, rules.LocationTable]:
    """The campaign's Location tables among the allowed ones, as they were when the dice were rolled."""
    campaign = state.campaign
    if roll is not None:
        data = campaign_data_as_of(
            campaign=campaign, at=roll.dice_roll.created_at, current=state.campaign_data
        )
    else:
        data = state.campaign_data or current_campaign_data(campaign=campaign)  # read once with the state's
    kept = data.location_tables()
    return {table: kept[table] for table in allowed if table in kept}


def _faces(exploration: Exploration) -> tuple[int, ...]:
    """The faces that stand: RULING E-2, the reroll replaces the die the player picked and the new face stands."""
    faces = list(exploration.roll.dice_roll.faces)
    if exploration.reroll is not None and exploration.reroll_die is not None:
        faces[exploration.reroll_die - 1] = exploration.reroll.dice_roll.faces[0]
    return tuple(faces)


def _work_out(exploration: Exploration) -> None:
    """The score, the Locations it finds (and those it would have found again) from the faces that stand."""
    exploration.faces = _faces(exploration)
    exploration.score = rules.exploration_score(exploration.faces, modifier=exploration.modifier)
    allowed = tuple(exploration.tables)
    exploration.found = rules.find_locations(
        exploration.score, tables=exploration.tables, allowed=allowed, found=exploration.found_before
    )
    every = rules.find_locations(exploration.score, tables=exploration.tables, allowed=allowed)
    exploration.already_found = tuple(loc for loc in every if loc.code in exploration.found_before)


def _odds(exploration: Exploration) -> None:
    """Before the roll: the chance of finding each Location of the allowed tables (`rules.location_odds`)."""
    chances = rules.location_odds(
        dice=exploration.dice,
        tables=exploration.tables,
        allowed=tuple(exploration.tables),
        modifier=exploration.modifier,
        found=exploration.found_before,
    )
    exploration.odds = [
        LocationChance(location, rules.format_odds(chance)) for location, chance in chances.items()
    ]


def _loot(state: PostGameState, exploration: Exploration) -> tuple[StrongboxChange, ...] | None:
    """The Strongboxes with the loot in this warband's: with a ransom it pays, one change for the two (the Apply
    moves each warband's Strongbox once). None: no loot, the Strongboxes as they were."""
    loot = exploration.loot
    if not loot:
        return None
    words = f"loot from the Exploration ({loot} {exploration.currency}, score {exploration.score})"
    boxes = state.strongboxes
    own = next((box for box in boxes if box.warband.pk == state.warband.pk), None)
    if own is None:
        return (*boxes, StrongboxChange(state.warband, loot, words, loot=loot, loot_reason=words))
    combined = replace(
        own,
        delta=own.delta + loot,
        reason=f"{own.reason} and {words}",
        loot=loot,
        loot_reason=words,
        ransom_reason=own.reason,
    )
    at = boxes.index(own)
    return (*boxes[:at], combined, *boxes[at + 1 :])


def _blockers(exploration: Exploration) -> tuple[str, ...]:
    """Once the dice are rolled, the step is finished before the Apply; before it, the Review only warns."""
    if not exploration.rolled or exploration.skipped:
        return ()
    found = []
    if exploration.reroll_open:
        found.append("Exploration: reroll one of the Exploration Dice or decline the reroll (RULING E-2).")
    if exploration.choice_needed:
        found.append("Exploration: choose which of the two Locations found is taken (RULING E-4).")
    return tuple(found)


def read(state: PostGameState) -> StepRead:
    """The step's part from the stored dice and answers, and the loot in the Strongbox changes."""
    if state.problem:
        return StepRead()
    live = state.post_game
    fought, found_before = record(state)
    allowed = rules.exploration_tables(battles_fought=fought)
    rolls = _rolls(state.warband_rolls)
    roll = rolls.get(PostGameRoll.Purpose.EXPLORATION)
    exploration = Exploration(
        battles_fought=fought,
        dice=rules.exploration_dice(battles_fought=fought),
        allowed=allowed,
        tables=_tables(state, roll, allowed),
        modifier=live.exploration_modifier if live is not None else 0,
        winner=state.player.result == GamePlayer.Result.WIN,
        currency=state.terms.currency,
        roll=roll,
        reroll=rolls.get(PostGameRoll.Purpose.EXPLORATION_REROLL),
        reroll_die=live.exploration_reroll_die if live is not None else None,
        declined=bool(live is not None and live.exploration_reroll_declined),
        chosen=live.location_code if live is not None else "",
        found_before=found_before,
    )
    reinforcements = state.reinforcements
    exploration.skipped = rules.exploration_skipped(
        reinforcements_called=reinforcements.called if reinforcements is not None else None
    )
    if exploration.skipped:
        return StepRead(exploration)
    if roll is None:
        _odds(exploration)
        return StepRead(exploration)
    _work_out(exploration)
    return StepRead(exploration, _blockers(exploration), strongboxes=_loot(state, exploration))


def done(state: PostGameState) -> bool:
    """Rolled, the winner's reroll taken or declined, and a Location picked when two are found."""
    exploration = state.exploration
    return exploration is None or exploration.done


@dataclass(frozen=True)
class AppliedExploration:
    """Once applied, the Exploration Dice that count, for the corrections of typed and voided dice (the rest is the summary)."""

    rolls: list[PostGameRoll]
    done: bool = True  # applied: nothing left to do


def read_applied(state: PostGameState) -> AppliedExploration:
    """The applied overview's part: the Exploration Dice and the reroll (one query)."""
    stored = PostGameRoll.objects.filter(
        post_game=state.post_game, fighter__isnull=True, dice_roll__status=DiceRoll.Status.COUNTED
    ).select_related("dice_roll__rolled_by", "dice_roll__replaces__status_by")
    rolls = sorted(_rolls(stored).values(), key=lambda roll: PURPOSES.index(roll.purpose))
    return AppliedExploration(rolls)
