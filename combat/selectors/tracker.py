"""Reads of the in-game tracker (issue 7).

The board of a game in progress: each crew's fighters with Harm, Injury boxes, Fatigue and status (a unit's
Health Pool), the step waiting to be settled, the last action with its undo, and the odds before a roll.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from combat import rules
from combat.models import TrackerAction, TrackerFighter, TrackerGame

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
