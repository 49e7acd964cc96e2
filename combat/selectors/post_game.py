"""Reads of the post-game Trauma Step wizard (issue 5).

What the post-game wizard shows at `/games/<id>/post-game/<warband_id>/`: each fighter taken Out of Action with
its stored rolls, the outcome the rules engine gives for them, the roll still needed (and its odds), the
Experience each fighter earns, and every change the Apply would make to the roster. Nothing here writes;
`combat.services.post_game_apply` calls `post_game_state(..., for_update=True)` and writes what it says.

An outcome is never stored: it is worked out again from the stored faces by running `rules.trauma_step` on that
one fighter with `ScriptedDice`, so a refresh shows the same result and the page knows the next roll needed
when the dice run out (a reroll for an Injury it already has, RULING T-5; the D3 of Bitter Lessons).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import OuterRef, Prefetch, Q, Subquery

from campaigns.models import Game, GamePlayer, OutOfAction
from combat import rules
from combat.models import PostGame, PostGameFighter, PostGameRoll
from rosters.models import Fighter, Injury, Item, Warband

POST_GAME_STEPS = ("out-of-action", "troops", "elites", "experience", "review")
# Fighter statuses for the engine's removal reasons (TraumaOutcome.reason).
REMOVAL_STATUS = {
    "dead": Fighter.Status.DEAD,
    "unfit_for_duty": Fighter.Status.UNFIT_FOR_DUTY,
    "blinded": Fighter.Status.BLINDED,
    "executed": Fighter.Status.EXECUTED,
}
HEAVY = "HEAVY"
SNIPER_PRIEST = "sniper priest"


class PostGameProblem(ValueError):
    """Something in the records stops the post-game (a house table the engine refuses, a game still played)."""


def post_game_is_elite(fighter) -> bool:
    """RULING T-1: a Troop is a model without the ELITE keyword. A Fallout: Factions Champion plays the same part
    (campaigns/terms.py: ELITE | Champion), as on the roster page."""
    return bool(fighter.is_elite or fighter.champion)


def post_game_full_recovery_instead(fighter) -> frozenset[str]:
    """TRAUMA_TABLE.md, Lost an Eye: "a Sniper Priest treats this result as Full Recovery" (by type or keyword)."""
    words = [fighter.fighter_type or "", *fighter.keywords]
    if any(SNIPER_PRIEST in word.lower() for word in words):
        return frozenset({"lost_an_eye"})
    return frozenset()


def post_game_trauma_table(campaign) -> rules.TraumaTable:
    """The campaign's Trauma Table: its house table when it has one (RULING T-3), else the shipped default."""
    rows = campaign.house_trauma_table
    if not rows:
        return rules.TraumaTable.default()
    try:
        if isinstance(rows, dict):
            return rules.TraumaTable.from_document(rows)
        return rules.TraumaTable.from_rows(rows, name=f"campaign-{campaign.pk}")
    except ValueError as error:
        raise PostGameProblem(
            f"The campaign's house Trauma Table cannot be used ({error}); the organiser can fix it in the "
            "campaign's settings."
        ) from error


def post_game_casualty(fighter, *, campaign, injuries: frozenset[str]) -> rules.Casualty:
    """The engine's view of a fighter taken Out of Action (`ValueError` when its record cannot be one)."""
    return rules.Casualty(
        str(fighter.pk),
        elite=post_game_is_elite(fighter),
        scars=fighter.battle_scars,
        injuries=injuries,
        scar_limit=campaign.scar_limit,
        can_gain_xp=fighter.can_gain_xp,
        full_recovery_instead=post_game_full_recovery_instead(fighter),
        name=fighter.name,
    )


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
        faces = self.dice.faces
        return faces[0] * 10 + faces[1] if len(faces) == 2 else faces[0]

    @property
    def what(self) -> str:
        if self.roll.purpose == PostGameRoll.Purpose.SURVIVAL:
            return "Survival Roll (D6)"
        if self.roll.purpose == PostGameRoll.Purpose.BITTER_LESSONS:
            return "Bitter Lessons (D3)"
        return "Trauma roll (D66)" if self.roll.sequence == 1 else f"Reroll {self.roll.sequence - 1} (D66)"

    @property
    def who(self) -> str:
        user = self.dice.rolled_by
        name = user.get_username() if user is not None else "someone"
        if self.dice.source == "server":
            return f"rolled by the server for {name}"
        return f"entered from the table by {name}"


@dataclass(frozen=True)
class OddsLine:
    label: str
    chance: Fraction
    words: str


@dataclass
class CasualtyState:
    """One fighter taken Out of Action, as the Troops and ELITE steps show it."""

    fighter: Fighter
    elite: bool
    casualty: rules.Casualty | None
    rolls: list[LoggedRoll]
    answer: PostGameFighter | None
    outcome: rules.TraumaOutcome | None = None
    needed: RollNeeded | None = None
    problem: str | None = None
    headline_odds: str | None = None
    odds: list[OddsLine] = field(default_factory=list)
    explanation: str | None = None
    rulings: list[tuple[str, str]] = field(default_factory=list)
    blocked_by_troops: bool = False
    # The result it already has, when the next roll is a reroll (RULING T-5).
    reroll_because: str | None = None
    card_error: str | None = None  # a refused roll or answer, shown on the fighter's card
    entered: dict | None = None  # what was typed in a refused form, shown again

    @property
    def id(self) -> int:
        return self.fighter.pk

    @property
    def injury_names(self) -> list[str]:
        return [injury.name for injury in self.fighter.injuries.all()]

    @property
    def name(self) -> str:
        return self.fighter.name

    @property
    def waiting_for_ransom(self) -> bool:
        return self.outcome is not None and self.outcome.pending == "ransom"

    @property
    def waiting_for(self) -> str | None:
        """What this fighter still needs before the Apply: a roll, the D3, the ransom answer; None when done."""
        if self.problem:
            return "problem"
        if self.needed is not None:
            return "d3" if self.needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS else "roll"
        if self.waiting_for_ransom:
            return "ransom"
        return None

    @property
    def done(self) -> bool:
        return self.waiting_for is None and self.outcome is not None

    @property
    def trauma_rolled(self) -> bool:
        """Whether its Survival Roll or Trauma roll is made (a D3 may still be needed: see the Experience step)."""
        return self.outcome is not None or (
            self.needed is not None and self.needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS
        )

    @property
    def final_roll(self) -> LoggedRoll | None:
        decisive = [roll for roll in self.rolls if roll.roll.purpose != PostGameRoll.Purpose.BITTER_LESSONS]
        return decisive[-1] if decisive else None


@dataclass
class XpLine:
    """The Experience one fighter earns in this post-game: the engine's award (`rules.post_game_experience`) and
    the reason in the page's words."""

    fighter: Fighter
    elite: bool
    out_of_action: bool
    took_part: bool
    survived: bool | None  # None: its Trauma roll is not made yet
    can_gain_xp: bool
    award: rules.ExperienceAward
    words: str = ""
    deeds_entered: int = 0  # as the player typed them, counted or not
    adjustment_entered: int = 0

    @property
    def id(self) -> int:
        return self.fighter.pk

    @property
    def base(self) -> int:
        return self.award.base

    @property
    def deeds(self) -> int:
        return self.award.glorious_deeds

    @property
    def bitter(self) -> int:
        return self.award.bitter_lessons

    @property
    def adjustment(self) -> int:
        return self.award.adjustment

    @property
    def total(self) -> int:
        return self.award.total

    @property
    def xp_after(self) -> int:
        return self.fighter.xp + self.total


@dataclass
class FighterChange:
    """What the Apply does to one fighter's row, its Injuries and its Battlekit."""

    fighter: Fighter
    status: str
    battle_scars: int
    can_gain_xp: bool
    misses_next_game: bool
    xp: int
    new_injuries: list[dict] = field(default_factory=list)  # code, name, effect, d66
    to_arsenal: list[Item] = field(default_factory=list)
    lost: list[Item] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)
    explanation: str | None = None
    rulings: list[tuple[str, str]] = field(default_factory=list)

    @property
    def changes_row(self) -> bool:
        fighter = self.fighter
        return (self.status, self.battle_scars, self.can_gain_xp, self.misses_next_game, self.xp) != (
            fighter.status,
            fighter.battle_scars,
            fighter.can_gain_xp,
            fighter.misses_next_game,
            fighter.xp,
        )


@dataclass
class StrongboxChange:
    warband: Warband
    delta: int
    reason: str
    ransomed: list[str] = field(default_factory=list)  # the Captured fighters whose ransom this is, by name

    @property
    def before(self) -> int:
        return self.warband.strongbox

    @property
    def after(self) -> int:
        return self.warband.strongbox + self.delta


@dataclass
class PostGameState:
    """Everything the wizard's pages show, and everything the Apply writes."""

    player: GamePlayer
    game: Game
    campaign: object
    warband: Warband
    terms: object
    post_game: PostGame | None  # the live attempt (open or applied), None before the first write
    attempts: list[PostGame]
    fighters: list[Fighter]  # the warband's active fighters and those marked Out of Action
    out_of_action: list[Fighter]
    casualties: list[CasualtyState] = field(default_factory=list)
    xp: list[XpLine] = field(default_factory=list)
    _opponents: list[Warband] | None = None
    changes: list[FighterChange] = field(default_factory=list)
    strongboxes: list[StrongboxChange] = field(default_factory=list)
    blockers: list[str] = field(default_factory=list)
    problem: str | None = None
    table: rules.TraumaTable | None = None

    @property
    def applied(self) -> bool:
        return self.post_game is not None and self.post_game.is_applied

    @property
    def opponents(self) -> list[Warband]:
        """The other warbands of the game (a Captured fighter's captor is one of them), read when first asked."""
        if self._opponents is None:
            entries = (
                GamePlayer.objects.filter(game=self.game).exclude(pk=self.player.pk).select_related("warband")
            )
            self._opponents = [entry.warband for entry in entries.order_by("id")]
        return self._opponents

    @property
    def status(self) -> str:
        """pending (nothing done yet), in_progress, or applied."""
        if self.post_game is None:
            return "pending"
        return "applied" if self.post_game.is_applied else "in_progress"

    @property
    def troops(self) -> list[CasualtyState]:
        return [state for state in self.casualties if not state.elite]

    @property
    def elites(self) -> list[CasualtyState]:
        return [state for state in self.casualties if state.elite]

    @property
    def troops_done(self) -> bool:
        return all(state.trauma_rolled and not state.problem for state in self.troops)

    @property
    def elites_done(self) -> bool:
        return all(
            state.trauma_rolled and not state.problem and not state.waiting_for_ransom
            for state in self.elites
        )

    @property
    def ready(self) -> bool:
        return not self.applied and not self.blockers and self.problem is None

    @property
    def current_step(self) -> str:
        """Where the owner picks up the wizard: the first step with something left to do."""
        if self.post_game is None:
            return "out-of-action"
        if not self.troops_done:
            return "troops"
        if not self.elites_done:
            return "elites"
        if any(state.waiting_for == "d3" for state in self.casualties):
            return "experience"
        return "review"

    @property
    def roll_ids(self) -> list[int]:
        return [roll.dice.pk for state in self.casualties for roll in state.rolls]

    @property
    def rolls_made(self) -> int:
        return sum(len(state.rolls) for state in self.casualties)

    @property
    def removed(self) -> list[FighterChange]:
        return [change for change in self.changes if change.status != Fighter.Status.ACTIVE]

    @property
    def reverted(self) -> list[PostGame]:
        return [attempt for attempt in self.attempts if attempt.status == PostGame.Status.REVERTED]


def _logged_rolls(rolls: list[PostGameRoll]) -> list[LoggedRoll]:
    # The order the engine reads them (RULING T-1 per fighter): the Survival D6, or the D66 rolls in sequence, then
    # the D3 of Bitter Lessons, which the engine asks for only once the D66 result is settled.
    order = {
        PostGameRoll.Purpose.SURVIVAL: 0,
        PostGameRoll.Purpose.TRAUMA: 1,
        PostGameRoll.Purpose.BITTER_LESSONS: 2,
    }
    return [LoggedRoll(roll) for roll in sorted(rolls, key=lambda roll: (order[roll.purpose], roll.sequence))]


def _needed_after(state: CasualtyState, sides: int) -> RollNeeded:
    """The roll the engine asked for when the stored faces ran out (`DiceExhausted.sides`)."""
    if sides == 3:
        done = sum(1 for roll in state.rolls if roll.roll.purpose == PostGameRoll.Purpose.BITTER_LESSONS)
        return RollNeeded(PostGameRoll.Purpose.BITTER_LESSONS, done + 1, 3, 1)
    if not state.elite:
        return RollNeeded(PostGameRoll.Purpose.SURVIVAL, 1, 6, 1)
    done = sum(1 for roll in state.rolls if roll.roll.purpose == PostGameRoll.Purpose.TRAUMA)
    return RollNeeded(PostGameRoll.Purpose.TRAUMA, done + 1, 6, 2)


def _resolve(state: CasualtyState, table: rules.TraumaTable) -> None:
    """Run the Trauma Step on this one fighter with its stored faces (ScriptedDice), in the engine's order."""
    faces: list[int] = []
    sides: list[int] = []
    for logged in state.rolls:
        faces.extend(logged.dice.faces)
        sides.extend([logged.dice.sides] * len(logged.dice.faces))
    dice = rules.ScriptedDice(faces)
    stale = (
        f"The dice stored for {state.name} no longer fit its record (its Injuries or Scars changed after the "
        "roll): put them back as they were on the roster to go on."
    )
    try:
        (outcome,) = rules.trauma_step([state.casualty], dice, table=table)
    except rules.DiceExhausted as exhausted:
        if [roll.sides for roll in dice.log] != sides:
            state.problem = stale
            return
        state.needed = _needed_after(state, exhausted.sides)
        if state.needed.purpose == PostGameRoll.Purpose.TRAUMA and state.needed.sequence > 1:
            state.reroll_because = table.lookup(state.rolls[-1].value).name
        elif state.needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS:
            # The D66 is settled; only the D3 of its extra XP is missing (TRAUMA_TABLE.md 65).
            *earlier, final = [
                roll.value for roll in state.rolls if roll.roll.purpose == PostGameRoll.Purpose.TRAUMA
            ]
            sentence = rules.explain_trauma_entry(
                table.lookup(final),
                roll=final,
                name=state.name,
                rerolled=[(value, table.lookup(value)) for value in earlier],
            )
            state.explanation = f"{sentence} Roll the D3."
        return
    except ValueError as error:
        state.problem = stale if state.rolls else f"{state.name} cannot be rolled for: {error}."
        return
    if dice.remaining or [roll.sides for roll in dice.log] != sides:
        state.problem = stale
        return
    if outcome.pending == "ransom" and state.answer is not None and state.answer.ransom_paid is not None:
        # TRAUMA_TABLE.md, Captured: unpaid, executed; paid, Full Recovery (RULING T-8).
        outcome = rules.settle_capture(outcome, ransom_paid=state.answer.ransom_paid)
    state.outcome = outcome
    state.explanation = rules.explain_trauma(outcome, name=state.name)
    state.rulings = [(ruling_id, rules.ruling(ruling_id)) for ruling_id in outcome.rulings]


def _odds(state: CasualtyState, table: rules.TraumaTable) -> None:
    """The odds before the roll, from `combat.rules.odds`, in plain words (PRODUCT.md: show the odds)."""
    casualty = state.casualty
    odds = rules.trauma_odds(casualty, table=table)
    if not state.elite:
        # RULING T-2: 1-2 on the Survival D6, the model is removed.
        state.headline_odds = f"{rules.format_odds(odds['removed'])} this fighter is lost"
        return
    fates = rules.trauma_fate_odds(casualty, table=table)
    parts = [f"{rules.format_odds(odds['removed'])} it leaves the roster"]
    if fates.get("captured"):
        parts.append(f"{rules.format_odds(fates['captured'])} it is Captured")
    if fates.get("unfit_for_duty"):
        parts.append(f"{rules.format_odds(fates['unfit_for_duty'])} it is Unfit For Duty (RULING T-4)")
    state.headline_odds = "; ".join(parts)
    names: dict[str, str] = {}
    for entry in table.entries:
        names.setdefault(entry.code, entry.name)
    for code, name in names.items():
        chance = odds.get(code, Fraction(0))
        if chance:
            state.odds.append(OddsLine(name, chance, rules.format_odds(chance)))
    state.odds.sort(key=lambda line: -line.chance)


def _battlekit_fate(outcome: rules.TraumaOutcome, items: list[Item]) -> tuple[list[Item], list[Item]]:
    """Which of its Battlekit goes to the Arsenal and which is lost, for the engine's `battlekit` answer.

    - "lost" when removed (Dead, Blinded, Executed, a Troop's death, RULING T-6): all of it.
    - "lost" when it stays (Robbed, TRAUMA_TABLE.md 36): all of it "except Battlekit that cannot be lost".
    - "heavy_lost" (Muscle Damage, 34): its HEAVY Battlekit.
    - "arsenal" (Unfit For Duty, RULING T-4): to the Arsenal, "unless it has a rule that says it cannot be removed
      from the model" (such kit leaves with it); with Muscle Damage its HEAVY Battlekit is lost first.
    """
    kit = outcome.battlekit
    if kit == "kept":
        return [], []
    if kit == "lost":
        if outcome.removed:
            return [], list(items)
        return [], [item for item in items if item.removable]
    heavy = [item for item in items if HEAVY in (keyword.upper() for keyword in item.keywords)]
    lost = heavy if kit == "heavy_lost" or outcome.heavy_battlekit_lost else []
    if kit == "arsenal":
        return [item for item in items if item.removable and item not in lost], lost
    return [], lost


def _experience_words(award: rules.ExperienceAward, *, elite_word: str) -> str:
    """The award of `rules.post_game_experience` in the Experience step's words."""
    if award.reason == "removed":
        return "No XP: removed from the roster."
    if award.reason == "pending":
        words = "Waiting for its Trauma Step."
    elif award.reason == "did_not_take_part":
        words = "Did not take part: no XP."
    elif award.reason == "cannot_gain_xp":
        words = "no XP: it can no longer gain XP (Head Wound; RULING T-9)"
    else:
        parts = []
        if award.base:
            parts.append(f"+{award.base} for taking part and surviving as {elite_word}")
        if award.glorious_deeds:
            parts.append(f"+{award.glorious_deeds} for Glorious Deeds")
        if award.bitter_lessons:
            parts.append(f"+{award.bitter_lessons} from Bitter Lessons")
        words = "; ".join(parts) if parts else "No XP this game."
    if award.adjustment:
        words += f" The organiser adjusted it by {award.adjustment:+d}."
    return words


def _experience(state: PostGameState, answers: dict[int, PostGameFighter]) -> None:
    """Step 4, Experience: for each fighter, what took part and survived means here, and the XP the rules engine
    awards for it (`rules.post_game_experience`, issue 5 and RULING T-9)."""
    by_id = {casualty.id: casualty for casualty in state.casualties}
    for fighter in state.fighters:
        casualty = by_id.get(fighter.pk)
        answer = answers.get(fighter.pk)
        if casualty is None and not fighter.is_active:
            continue
        elite = post_game_is_elite(fighter)
        out = casualty is not None
        if out:
            took_part = True
        elif answer is not None:
            took_part = answer.took_part
        else:
            # A fighter that joined the roster after the game was recorded cannot have taken part in it.
            took_part = fighter.created_at <= state.game.created_at
        outcome = casualty.outcome if casualty is not None else None
        if out and (outcome is None or outcome.pending):
            survived = None
        else:
            survived = not (outcome is not None and outcome.removed)
        can_gain = outcome.can_gain_xp if outcome is not None else fighter.can_gain_xp
        award = rules.post_game_experience(
            elite=elite,
            took_part=took_part,
            survived=survived,
            can_gain_xp=can_gain,
            glorious_deeds=answer.glorious_deeds if answer is not None else 0,
            bitter_lessons=outcome.xp_gained if outcome is not None else 0,
            adjustment=answer.xp_adjustment if answer is not None else 0,
        )
        line = XpLine(
            fighter,
            elite,
            out,
            took_part,
            survived,
            can_gain,
            award,
            words=_experience_words(award, elite_word=state.terms.elite),
        )
        if answer is not None:
            line.deeds_entered, line.adjustment_entered = answer.glorious_deeds, answer.xp_adjustment
        state.xp.append(line)
        if line.xp_after < 0:
            state.blockers.append(
                f"{fighter.name}'s XP would fall below 0: change the organiser's adjustment."
            )


def _changes(state: PostGameState, answers: dict[int, PostGameFighter]) -> None:
    """Every change the Apply makes, with one sentence each (PRODUCT.md: show the rule)."""
    terms = state.terms
    xp_by_id = {line.id: line for line in state.xp}
    by_id = {casualty.id: casualty for casualty in state.casualties}
    ransoms: dict[int | None, int] = defaultdict(int)
    ransomed: dict[int | None, list[str]] = defaultdict(list)  # by captor
    paid_for: list[str] = []
    for fighter in state.fighters:
        casualty = by_id.get(fighter.pk)
        line = xp_by_id.get(fighter.pk)
        if casualty is None and line is None:
            continue
        outcome = casualty.outcome if casualty is not None else None
        if casualty is not None and (outcome is None or outcome.pending or casualty.waiting_for):
            continue
        change = FighterChange(
            fighter,
            status=fighter.status,
            battle_scars=fighter.battle_scars,
            can_gain_xp=fighter.can_gain_xp,
            misses_next_game=fighter.misses_next_game,
            xp=line.xp_after if line is not None else fighter.xp,
        )
        if outcome is not None:
            change.explanation = casualty.explanation
            change.rulings = casualty.rulings
            change.battle_scars = outcome.scars
            change.can_gain_xp = outcome.can_gain_xp
            if outcome.removed:
                change.status = REMOVAL_STATUS[outcome.reason]
                change.xp = fighter.xp
                change.sentences.append(f"Removed from the roster: {Fighter.Status(change.status).label}.")
            elif outcome.misses_next_game:
                change.misses_next_game = True
                change.sentences.append("Misses the next game (Minor Wound).")
            if outcome.scars != fighter.battle_scars:
                change.sentences.append(
                    f"Battle Scars {fighter.battle_scars} → {outcome.scars} of {outcome.scar_limit}."
                )
            final = casualty.final_roll
            for code in sorted(outcome.injuries - casualty.casualty.injuries):
                entry = next(entry for entry in state.table.entries if entry.code == code)
                change.new_injuries.append(
                    {
                        "code": code,
                        "name": entry.name,
                        "effect": entry.effect,
                        "d66": final.value if final else None,
                    }
                )
                change.sentences.append(f"New Injury: {entry.name} — {entry.effect}.")
            if fighter.can_gain_xp and not outcome.can_gain_xp:
                change.sentences.append("Can no longer gain XP.")
            items = list(fighter.battlekit.all())
            change.to_arsenal, change.lost = _battlekit_fate(outcome, items)
            if change.to_arsenal:
                names = ", ".join(item.name for item in change.to_arsenal)
                change.sentences.append(f"{terms.battlekit} to the {terms.arsenal}: {names}.")
            if change.lost:
                names = ", ".join(item.name for item in change.lost)
                change.sentences.append(f"{terms.battlekit} lost: {names}.")
            answer = answers.get(fighter.pk)
            if outcome.entry is not None and outcome.entry.code == "captured" and outcome.ransom_paid:
                captor_id, ransom = (answer.captor_id, answer.ransom) if answer else (None, 0)
                ransoms[captor_id] += ransom
                if ransom:
                    ransomed[captor_id].append(fighter.name)
                    paid_for.append(fighter.name)
        if change.xp != fighter.xp:
            change.sentences.append(f"XP {fighter.xp} → {change.xp}.")
        if change.sentences or change.changes_row:
            state.changes.append(change)
    total = sum(ransoms.values())
    if total:
        opponents = {warband.pk: warband for warband in state.opponents}
        state.strongboxes.append(
            StrongboxChange(state.warband, -total, f"ransom paid ({total} {terms.currency})", paid_for)
        )
        for captor_id, amount in ransoms.items():
            captor = opponents.get(captor_id)
            if captor is not None and amount:
                state.strongboxes.append(
                    StrongboxChange(
                        captor, amount, f"ransom received from {state.warband.name}", ransomed[captor_id]
                    )
                )
        if total > state.warband.strongbox:
            state.blockers.append(
                f"The ransoms come to {total} {terms.currency} but {state.warband.name}'s {terms.strongbox} holds "
                f"only {state.warband.strongbox}: change the ransom."
            )


def _blockers(state: PostGameState) -> None:
    for casualty in state.casualties:
        waiting = casualty.waiting_for
        if waiting == "problem":
            state.blockers.append(casualty.problem)
        elif waiting == "roll":
            state.blockers.append(f"{casualty.name} still needs its {casualty.needed.words.split(':')[0]}.")
        elif waiting == "d3":
            state.blockers.append(f"{casualty.name} still needs the D3 of Bitter Lessons (Experience step).")
        elif waiting == "ransom":
            state.blockers.append(f"Say whether {casualty.name}'s ransom is paid.")


def _post_game_fighters(player: GamePlayer, *, for_update: bool):
    """The warband's active fighters and those marked Out of Action (`out_of_action_mark`, the mark's id, else
    None), with Injuries and Battlekit, in one query and two prefetches."""
    items = Item.objects.order_by("id")
    mark = OutOfAction.objects.filter(player=player, fighter=OuterRef("pk")).values("pk")[:1]
    fighters = (
        Fighter.objects.filter(warband_id=player.warband_id)
        .annotate(out_of_action_mark=Subquery(mark))
        .filter(Q(status=Fighter.Status.ACTIVE) | Q(out_of_action_mark__isnull=False))
    )
    if for_update:
        # The Apply changes these rows: lock them so a roster edit cannot slip in between read and write.
        fighters = fighters.select_for_update(of=("self",))
        items = items.select_for_update()
    return list(
        fighters.prefetch_related(
            Prefetch("injuries", queryset=Injury.objects.order_by("id")),
            Prefetch("battlekit", queryset=items),
        ).order_by("id")
    )


def post_game_state(*, player: GamePlayer, for_update: bool = False) -> PostGameState:
    """The post-game of one warband in one game, worked out from its rows and the rules engine.

    `player` should come with `game__campaign` and `warband` loaded (one query). About ten queries whatever the
    number of fighters; `for_update` locks the fighters and their Battlekit (the Apply).
    """
    game = player.game
    campaign = game.campaign
    attempts = list(PostGame.objects.filter(player=player).order_by("-attempt"))
    live = next((attempt for attempt in attempts if attempt.status != PostGame.Status.REVERTED), None)
    if live is not None and live.is_applied:
        # The roster already holds the result: the pages show what the Apply stored, not a recomputation.
        fighters = list(Fighter.objects.filter(out_of_action__player=player).order_by("out_of_action__id"))
        return PostGameState(
            player, game, campaign, player.warband, campaign.terms, live, attempts, fighters, fighters
        )
    fighters = _post_game_fighters(player, for_update=for_update)
    # In the order the game recorded them.
    out = sorted(
        (fighter for fighter in fighters if fighter.out_of_action_mark is not None),
        key=lambda fighter: fighter.out_of_action_mark,
    )
    state = PostGameState(
        player, game, campaign, player.warband, campaign.terms, live, attempts, fighters, out
    )
    if game.status == Game.Status.IN_PROGRESS:
        state.problem = f"Game {game.number} is still being played: its post-game opens when it is recorded."
    try:
        state.table = post_game_trauma_table(campaign)
    except PostGameProblem as problem:
        state.problem = str(problem)
        return state
    rolls: dict[int, list[PostGameRoll]] = defaultdict(list)
    answers: dict[int, PostGameFighter] = {}
    if live is not None:
        for roll in PostGameRoll.objects.filter(post_game=live).select_related("dice_roll__rolled_by"):
            rolls[roll.fighter_id].append(roll)
        answers = {
            answer.fighter_id: answer
            for answer in PostGameFighter.objects.filter(post_game=live).select_related("captor")
        }
    casualties = []
    for fighter in out:
        elite = post_game_is_elite(fighter)
        casualty_state = CasualtyState(
            fighter, elite, None, _logged_rolls(rolls[fighter.pk]), answers.get(fighter.pk)
        )
        if not fighter.is_active:
            casualty_state.problem = (
                f"{fighter.name} is no longer on the roster ({fighter.get_status_display()}): take it off the "
                "Out of Action list."
            )
        else:
            injuries = frozenset(injury.code for injury in fighter.injuries.all())
            try:
                casualty_state.casualty = post_game_casualty(fighter, campaign=campaign, injuries=injuries)
            except ValueError as error:
                casualty_state.problem = f"{fighter.name} cannot go through the Trauma Step: {error}."
        if casualty_state.casualty is not None:
            _resolve(casualty_state, state.table)
            if (
                casualty_state.needed is not None
                and casualty_state.needed.purpose != PostGameRoll.Purpose.BITTER_LESSONS
            ):
                _odds(casualty_state, state.table)
        casualties.append(casualty_state)
    # RULING T-1: every Troop rolls before any ELITE model; each group in the order the game recorded them.
    state.casualties = [c for c in casualties if not c.elite] + [c for c in casualties if c.elite]
    if not state.troops_done:
        for casualty_state in state.elites:
            casualty_state.blocked_by_troops = True
    _experience(state, answers)
    _blockers(state)
    _changes(state, answers)
    return state


def post_game_player(*, game_id: int, warband_id: int) -> GamePlayer | None:
    """A warband's entry in a game, with what the wizard's pages need of it."""
    return (
        GamePlayer.objects.filter(game_id=game_id, warband_id=warband_id)
        .select_related("game__campaign", "warband__owner")
        .first()
    )
