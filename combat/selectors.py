"""Reads for combat's pages: one function per page need, with the joins that page needs (ARCHITECTURE.md).

Rules questions (odds, what a Damage would do) are answered by `combat.rules`; this module only loads rows, turns
them into the engine's objects, and shapes the answers for templates.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import OuterRef, Prefetch, Q, Subquery

from campaigns.models import Game, GamePlayer, OutOfAction
from combat import rules
from combat.models import PostGame, PostGameFighter, PostGameRoll, TrackerAction, TrackerFighter, TrackerGame
from rosters.models import Fighter, Injury, Item, Warband

# ==== In-game tracker (issue 7) ===============================================================================
#
# The board of a game in progress: each crew's fighters with Harm, Injury boxes, Fatigue and status (a unit's
# Health Pool), the step waiting to be settled, the last action with its undo, and the odds before a roll.

# Status words on the board; a unit with no model left is "wiped out" rather than Incapacitated in words.
STATUS_WORDS = {"active": "Active", "incapacitated": "Incapacitated", "fled": "Fled"}
# The Damage table's rows, in the words the pages use (000 "Damage Resolution").
ROW_WORDS = {
    "incapacitated": "Incapacitated",
    "injury": "an Injury and 1 Harm",
    "harm": "1 Harm",
    "none": "nothing (no Hit)",
}
ODDS_ROWS = ("incapacitated", "injury", "harm", "none")
# A Test's dice pools above this are refused: no table holds more, and the odds are enumerated per Hit.
MAX_POOL = 30


def tracker_is_champion(fighter) -> bool:
    """Who counts as a Champion for Harsh Lessons: the Champion flag (Fallout: Factions), or the ELITE keyword,
    the same role in a Trench Crusade campaign (campaigns/terms.py: ELITE | Champion)."""
    return bool(fighter.champion or fighter.is_elite)


def tracker_combatant(tracked: TrackerFighter) -> rules.Combatant:
    """The engine's view of a tracked single model: the roster's profile with the game's Harm, Injuries, Fatigue."""
    fighter = tracked.fighter
    return rules.Combatant(
        endurance=fighter.endurance,
        health=fighter.health,
        harm=tracked.harm,
        harm_limit=fighter.harm_limit,
        injuries=tracked.injuries,
        fatigue=tracked.fatigue,
        champion=tracker_is_champion(fighter),
        incapacitated=tracked.status == TrackerFighter.Status.INCAPACITATED,
        name=fighter.name,
    )


def tracker_health_pool(tracked: TrackerFighter) -> rules.HealthPool:
    """A unit's Health Pool: its models left, `health` Health Points each, the lost points carried (RULING H-1)."""
    return rules.HealthPool(
        models=tracked.models_left, hp_per_model=tracked.fighter.health, lost=tracked.lost_hp
    )


def is_unit(fighter) -> bool:
    # A fighter of several models shares one Health Pool (seed 004; rosters.Fighter.unit_size).
    return fighter.unit_size > 1


@dataclass(frozen=True)
class AttackTest:
    """What the players say about an Attack Test before it is rolled.

    `dice` and `stat` are the weapon's Test (`3A` with Agility 6 is dice=3, stat=6); a Makeshift Weapon is 2S
    (RULING D-12), the attacker's Strength. `brawl` adds the Brawl Bonus Dice (charged this turn, supporting
    friends); any attack gains one Bonus Die per Harm on the Target (000 "Harm"). `bonus` holds Bonus Dice from
    other rules (a Trait, a Perk), added as they are.
    """

    dice: int = 2
    stat: int = 5
    makeshift: bool = False
    brawl: bool = False
    charged: bool = False
    supporting_friends: int = 0
    bonus: int = 0
    attacker: TrackerFighter | None = None


@dataclass(frozen=True)
class AttackPool:
    dice: int
    bonus_dice: int
    pool: int
    stat: int
    words: str  # "2S (Makeshift Weapon) + 1 Bonus Die for the Harm on Fidus: 3 D10s against 6"


def attack_dice_pool(target: TrackerFighter, attack: AttackTest) -> AttackPool:
    """The whole Dice Pool of an Attack Test on `target` and the stat it is rolled against.

    Raises ValueError (with the engine's message) for a pool or stat the rules refuse.
    """
    harm = 0 if is_unit(target.fighter) else target.harm
    dice, stat, weapon = attack.dice, attack.stat, None
    if attack.makeshift:
        # 002 "Makeshift Weapons": "Test 2S, no Traits, no Critical Effect" — the attacker's Strength.
        weapon = rules.MAKESHIFT_WEAPON
        dice = weapon.dice
        if attack.attacker is not None:
            stat = attack.attacker.fighter.strength
    if attack.makeshift or attack.brawl:
        # RULING D-12: Brawl Bonus Dice are summed (charged, each Harm on the Target, each free friend).
        bonus = rules.brawl_bonus_dice(
            charged=attack.charged, target_harm=harm, supporting_friends=attack.supporting_friends
        )
    else:
        # 000 "Harm": the Attacking model gains a Bonus Die per Harm on the Target.
        bonus = harm
    bonus += attack.bonus
    pool = rules.dice_pool(base=dice, bonus_dice=bonus)
    if pool > MAX_POOL:
        raise ValueError(f"a pool of {pool} dice is more than the {MAX_POOL} the tracker rolls")
    if not 1 <= stat <= 10:
        raise ValueError(f"stat must be 1 to 10, got {stat}")
    test = f"Makeshift Weapon {dice}S" if weapon else f"{dice} dice"
    parts = []
    if attack.makeshift or attack.brawl:
        if attack.charged:
            parts.append("1 for charging")
        if harm:
            parts.append(f"{harm} for the Harm on {target.fighter.name}")
        if attack.supporting_friends:
            parts.append(f"{attack.supporting_friends} for supporting friends")
    elif harm:
        parts.append(f"{harm} for the Harm on {target.fighter.name}")
    if attack.bonus:
        parts.append(f"{attack.bonus} from other rules")
    if bonus:
        test += f" + {bonus} Bonus {'Die' if bonus == 1 else 'Dice'} ({', '.join(parts)})"
    words = f"{test}: {pool} D10s, a Hit on {stat} or less"
    return AttackPool(dice=dice, bonus_dice=bonus, pool=pool, stat=stat, words=words)


@dataclass(frozen=True)
class OddsRow:
    key: str
    label: str
    chance: Fraction
    words: str  # "1 in 3", "14%"

    @property
    def percent(self) -> int:
        return round(self.chance * 100)


def tracker_attack_odds(target: TrackerFighter, pool: AttackPool) -> list[OddsRow]:
    """The chance of each outcome before the roll (PRODUCT.md: show the odds, exactly, in plain words).

    A single model: each row of the Damage table (`damage_odds`). A unit: how many models the Hits remove from
    its Health Pool, from the chance of each number of Hits run through `lose_health_points`.
    """
    if is_unit(target.fighter):
        removed: dict[int, Fraction] = defaultdict(Fraction)
        health_pool = tracker_health_pool(target)
        for hits, chance in rules.hit_distribution(dice_count=pool.pool, stat=pool.stat).items():
            removed[rules.lose_health_points(health_pool, hits).removed] += chance
        return [
            OddsRow(
                f"removed-{count}",
                "no model removed" if count == 0 else f"{count} model{'s' if count != 1 else ''} removed",
                chance,
                rules.format_odds(chance),
            )
            for count, chance in sorted(removed.items())
            if chance
        ]
    odds = rules.damage_odds(tracker_combatant(target), dice_count=pool.pool, stat=pool.stat)
    rows = [OddsRow(key, ROW_WORDS[key], odds[key], rules.format_odds(odds[key])) for key in ODDS_ROWS]
    rows.append(
        OddsRow(
            "incapacitated_after",
            "Incapacitated either way",
            odds["incapacitated_after"],
            rules.format_odds(odds["incapacitated_after"]),
        )
    )
    return rows


@dataclass(frozen=True)
class LadderStep:
    low: int
    high: int | None  # None: "or more"
    words: str


def tracker_damage_ladder(target: TrackerFighter) -> list[LadderStep]:
    """What each amount of Damage would do to `target` now, grouped ("Damage 1-2: 1 Harm"), asked of the engine
    for every amount up to the first that Incapacitates outright (RULING D-1: at least double the Endurance)."""
    if is_unit(target.fighter) or target.status != TrackerFighter.Status.ACTIVE:
        return []
    combatant = tracker_combatant(target)
    steps: list[LadderStep] = []
    top = 2 * combatant.endurance
    for damage in range(1, top + 1):
        outcome = rules.inflict_damage(combatant, damage)
        words = ROW_WORDS[outcome.row]
        if outcome.excess_harm and outcome.row == "injury":
            words = "an Injury, and the Excess Harm is a second Injury (RULING D-2)"
        elif outcome.excess_harm:
            words = "1 Harm, which is Excess Harm: an Injury (RULING D-2)"
        if outcome.incapacitated and outcome.row != "incapacitated":
            words += ": Incapacitated (RULING D-8)"
        if steps and steps[-1].words == words:
            steps[-1] = LadderStep(steps[-1].low, damage, words)
        else:
            steps.append(LadderStep(damage, damage, words))
    last = steps[-1]
    steps[-1] = LadderStep(last.low, None, last.words)
    return steps


# --- The board ------------------------------------------------------------------------------------------------


@dataclass
class BoardFighter:
    tracked: TrackerFighter
    fighter: object
    unit: bool
    champion: bool
    boxes: list[bool] = field(default_factory=list)  # Injury Boxes, marked first

    @property
    def id(self) -> int:
        return self.fighter.pk

    @property
    def status(self) -> str:
        return self.tracked.status

    @property
    def status_words(self) -> str:
        if self.unit and self.tracked.status == TrackerFighter.Status.INCAPACITATED:
            return "Wiped out"
        return STATUS_WORDS[self.tracked.status]

    @property
    def in_play(self) -> bool:
        return self.tracked.status == TrackerFighter.Status.ACTIVE

    @property
    def exhausted(self) -> bool:
        return not rules.can_take_fatigue(self.tracked)  # RULING D-7: 2 Fatigue


@dataclass
class BoardCrew:
    player: object
    warband: object
    fighters: list[BoardFighter]
    harsh_lessons: bool

    @property
    def in_play(self) -> int:
        return sum(1 for fighter in self.fighters if fighter.in_play)


@dataclass
class PendingStep:
    """The step that must be settled before any other action, in the page's words."""

    kind: str  # "friends", "test", "choice" (Confusion, RULING D-10) or "tie" (RULING A-2)
    incapacitated: BoardFighter | None = None
    candidates: list[BoardFighter] = field(default_factory=list)  # friends that may be within 3"
    remaining: list[BoardFighter] = field(default_factory=list)  # friends still to test
    awaiting: BoardFighter | None = None  # the Confused friend choosing Flee or Take Fatigue
    choices: tuple[str, ...] = ()
    results: list[str] = field(default_factory=list)  # sentences of the Tests made so far
    tests: list[tuple[BoardFighter, str]] = field(default_factory=list)  # friends to test, chance to pass
    target: BoardFighter | None = None  # the unit whose equally close models are to be ordered
    ties: list[list[dict]] = field(default_factory=list)
    damage: int = 0


@dataclass
class Board:
    tracker: TrackerGame
    game: object
    crews: list[BoardCrew]
    last_action: TrackerAction | None
    recent: list[TrackerAction]
    pending: PendingStep | None

    @property
    def version(self) -> int:
        return self.tracker.version

    @property
    def by_id(self) -> dict[int, BoardFighter]:
        return {fighter.id: fighter for crew in self.crews for fighter in crew.fighters}


def tracker_version(*, game_id: int) -> int | None:
    """The board's version, for a poll that answers "nothing changed" without loading the board."""
    return TrackerGame.objects.filter(game_id=game_id).values_list("version", flat=True).first()


def _board_fighter(tracked: TrackerFighter) -> BoardFighter:
    fighter = tracked.fighter
    unit = is_unit(fighter)
    boxes = [] if unit else [index < tracked.injuries for index in range(fighter.health)]
    return BoardFighter(tracked, fighter, unit, tracker_is_champion(fighter), boxes)


# What the board reads of each row (a 15-fighter crew's board is polled by every phone at the table).
BOARD_COLUMNS = (
    *(
        f"{name}"
        for name in ("tracker_id", "player_id", "fighter_id", "harm", "injuries", "fatigue", "status")
    ),
    "models_left",
    "lost_hp",
    *(
        f"fighter__{name}"
        for name in (
            "warband_id",
            "name",
            "fighter_type",
            "champion",
            "keywords",
            "endurance",
            "intelligence",
            "strength",
            "health",
            "harm_limit",
            "unit_size",
        )
    ),
    "player__game_id",
    "player__warband_id",
    "player__result",
    "player__warband__name",
    "player__warband__owner_id",
    "player__warband__owner__username",
)
ACTION_COLUMNS = (
    "tracker_id",
    "version",
    "kind",
    "summary",
    "created_at",
    "undone_at",
    "undone_version",
    "by_id",
    "undone_by_id",
    "by__username",
    "undone_by__username",
)


def tracker_board(*, game, recent: int = 8) -> Board | None:
    """Everything the board shows, in a fixed number of queries whatever the size of the crews."""
    tracker = TrackerGame.objects.filter(game=game).first()
    if tracker is None:
        return None
    tracked = list(
        TrackerFighter.objects.filter(tracker=tracker)
        .select_related("fighter", "player__warband__owner")
        .only(*BOARD_COLUMNS)
        .order_by("player_id", "fighter_id")
    )
    crews: dict[int, BoardCrew] = {}
    for row in tracked:
        crew = crews.get(row.player_id)
        if crew is None:
            warband = row.player.warband
            crew = crews[row.player_id] = BoardCrew(
                row.player, warband, [], warband.pk in tracker.harsh_lessons
            )
        crew.fighters.append(_board_fighter(row))
    actions = list(
        tracker.actions.select_related("by", "undone_by").only(*ACTION_COLUMNS).order_by("-version")[:recent]
    )
    last = next((action for action in actions if not action.undone), None)
    if last is None and actions:
        last = (
            tracker.actions.filter(undone_at__isnull=True)
            .select_related("by", "undone_by")
            .only(*ACTION_COLUMNS)
            .order_by("-version")
            .first()
        )
    board = Board(tracker, game, list(crews.values()), last, actions, None)
    board.pending = _pending_step(tracker, board)
    return board


def _pending_step(tracker: TrackerGame, board: Board) -> PendingStep | None:
    pending = tracker.pending
    if not pending:
        return None
    fighters = board.by_id
    if pending["kind"] == "tie":
        return PendingStep(
            "tie", target=fighters.get(pending["target"]), ties=pending["ties"], damage=pending["damage"]
        )
    incapacitated = fighters.get(pending["incapacitated"])
    if pending["stage"] == "friends":
        crew = next(crew for crew in board.crews if crew.player.pk == incapacitated.tracked.player_id)
        candidates = [f for f in crew.fighters if f.in_play and f is not incapacitated]
        return PendingStep("friends", incapacitated, candidates=candidates)
    sequence = confusion_from_json(pending["sequence"])
    results = [
        rules.explain_confusion(result, name=fighters[int(result.friend.id)].fighter.name)
        for result in sequence.results
    ]
    if sequence.awaiting is not None:
        friend = fighters[int(sequence.awaiting.friend.id)]
        results.append(rules.explain_confusion(sequence.awaiting, name=friend.fighter.name))
        return PendingStep(
            "choice", incapacitated, awaiting=friend, choices=sequence.choices, results=results
        )
    remaining = [fighters[int(friend.id)] for friend in sequence.remaining]
    # The chance each Confusion Test (2I) passes, before it is rolled (RULING D-6: one Hit passes).
    tests = [
        (friend, rules.format_odds(rules.pass_odds(dice_count=2, stat=int(model.intelligence))))
        for friend, model in zip(remaining, sequence.remaining, strict=True)
    ]
    return PendingStep("test", incapacitated, remaining=remaining, results=results, tests=tests)


# Confusion Tests in progress are kept between requests as JSON (the engine's ConfusionSequence is immutable and
# holds only plain values).


def _friend_json(friend: rules.FriendlyModel) -> dict:
    return {
        "id": friend.id,
        "intelligence": friend.intelligence,
        "fatigue": friend.fatigue,
        "name": friend.name,
    }


def _result_json(result: rules.ConfusionResult) -> dict:
    return {
        "friend": _friend_json(result.friend),
        "faces": list(result.test.faces),
        "hits": result.test.hits,
        "choice": result.choice,
        "fatigue_after": result.fatigue_after,
        "forced": result.forced,
    }


def confusion_to_json(sequence: rules.ConfusionSequence) -> dict:
    return {
        "incapacitated": sequence.incapacitated,
        "due": [_friend_json(friend) for friend in sequence.due],
        "results": [_result_json(result) for result in sequence.results],
        "awaiting": _result_json(sequence.awaiting) if sequence.awaiting is not None else None,
    }


def _friend_from(data: dict) -> rules.FriendlyModel:
    return rules.FriendlyModel(data["id"], data["intelligence"], data["fatigue"], data["name"])


def _result_from(data: dict) -> rules.ConfusionResult:
    return rules.ConfusionResult(
        _friend_from(data["friend"]),
        rules.StatTestResult(tuple(data["faces"]), data["hits"]),
        data["choice"],
        data["fatigue_after"],
        data["forced"],
    )


def confusion_from_json(data: dict) -> rules.ConfusionSequence:
    return rules.ConfusionSequence(
        data["incapacitated"],
        tuple(_friend_from(friend) for friend in data["due"]),
        tuple(_result_from(result) for result in data["results"]),
        _result_from(data["awaiting"]) if data["awaiting"] is not None else None,
    )


def tracker_target(*, game, fighter_id: int) -> TrackerFighter | None:
    """One fighter on the game's board (None when it is not in this game)."""
    return (
        TrackerFighter.objects.filter(tracker__game=game, fighter_id=fighter_id)
        .select_related("fighter", "player__warband", "tracker")
        .first()
    )


def tracker_attackers(*, target: TrackerFighter) -> list[TrackerFighter]:
    """Fighters in play that may attack `target`: those of the other crews in the game."""
    return list(
        TrackerFighter.objects.filter(tracker_id=target.tracker_id, status=TrackerFighter.Status.ACTIVE)
        .exclude(player_id=target.player_id)
        .select_related("fighter", "player__warband")
        .order_by("player_id", "fighter_id")
    )


# ==== Post-game Trauma Step (issue 5) =========================================================================
#
# What the post-game wizard shows at `/games/<id>/post-game/<warband_id>/`: each fighter taken Out of Action with
# its stored rolls, the outcome the rules engine gives for them, the roll still needed (and its odds), the
# Experience each fighter earns, and every change the Apply would make to the roster. Nothing here writes;
# `combat.services.post_game_apply` calls `post_game_state(..., for_update=True)` and writes what it says.
#
# An outcome is never stored: it is worked out again from the stored faces by running `rules.trauma_step` on that
# one fighter with `ScriptedDice`, so a refresh shows the same result and the page knows the next roll needed
# when the dice run out (a reroll for an Injury it already has, RULING T-5; the D3 of Bitter Lessons).

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
                ransoms[answer.captor_id if answer else None] += answer.ransom if answer else 0
        if change.xp != fighter.xp:
            change.sentences.append(f"XP {fighter.xp} → {change.xp}.")
        if change.sentences or change.changes_row:
            state.changes.append(change)
    total = sum(ransoms.values())
    if total:
        opponents = {warband.pk: warband for warband in state.opponents}
        state.strongboxes.append(
            StrongboxChange(state.warband, -total, f"ransom paid ({total} {terms.currency})")
        )
        for captor_id, amount in ransoms.items():
            captor = opponents.get(captor_id)
            if captor is not None and amount:
                state.strongboxes.append(
                    StrongboxChange(captor, amount, f"ransom received from {state.warband.name}")
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


# ==== Dice log (issue 6) ======================================================================================
#
# Every roll of the campaign (DiceRoll: stored before its result is shown, ARCHITECTURE.md), newest first, with
# who rolled, when, server or entered (RULING T-7), the faces and what for. Pages by keyset over
# (created_at, id), which the `diceroll_campaign_recent` index serves however long the log grows. (Imports stay
# inside this section's functions so it can sit apart from the tracker's and the post-game's.)

DICE_PURPOSES = {
    "survival": "Survival Roll",
    "trauma": "Trauma roll",
    "bitter_lessons": "Bitter Lessons D3",
    "attack": "Attack Test",
    "confusion": "Confusion Test",
}


@dataclass
class DiceLogPage:
    rolls: list
    older: str | None  # cursor of the next (older) page; None on the last page


class BadDiceCursor(ValueError):
    """A dice-log page link that was not made here."""


def _epoch():
    import datetime as dt

    return dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def _dice_cursor(roll) -> str:
    import datetime as dt

    return f"{(roll.created_at - _epoch()) // dt.timedelta(microseconds=1)}-{roll.pk}"


def _parse_dice_cursor(text: str):
    import datetime as dt
    import re

    match = re.fullmatch(r"(\d{1,18})-(\d{1,18})", text or "")
    if not match:
        raise BadDiceCursor("That page link is not valid; start again from the newest rolls.")
    return _epoch() + dt.timedelta(microseconds=int(match.group(1))), int(match.group(2))


def _dice_words(roll) -> str:
    # A D66 is two D6 read as tens and units (TRAUMA_TABLE.md); other rolls are so many dice of so many sides.
    if roll.sides == 6 and len(roll.faces) == 2 and roll.purpose == "trauma":
        return "D66"
    return f"{len(roll.faces)}D{roll.sides}"


def dice_log_page(
    *,
    campaign,
    before: str | None = None,
    game_id: int | None = None,
    warband_id: int | None = None,
    limit: int = 50,
) -> DiceLogPage:
    """One page of the campaign's dice log, newest first; a fixed number of queries whatever its length."""
    from combat.models import DiceRoll
    from rosters.history import display_name

    rolls = (
        DiceRoll.objects.filter(campaign=campaign)
        .select_related("rolled_by", "game", "warband", "fighter")
        .order_by("-created_at", "-id")
    )
    if game_id is not None:
        rolls = rolls.filter(game_id=game_id)
    if warband_id is not None:
        rolls = rolls.filter(warband_id=warband_id)
    if before:
        at, roll_id = _parse_dice_cursor(before)
        rolls = rolls.filter(Q(created_at__lt=at) | Q(created_at=at, id__lt=roll_id))
    found = list(rolls[: limit + 1])
    older = _dice_cursor(found[limit - 1]) if len(found) > limit else None
    found = found[:limit]
    for roll in found:
        roll.purpose_words = DICE_PURPOSES.get(roll.purpose, roll.purpose.replace("_", " "))
        roll.dice_words = _dice_words(roll)
        roll.roller_name = display_name(roll.rolled_by) if roll.rolled_by else "someone"
    return DiceLogPage(rolls=found, older=older)
