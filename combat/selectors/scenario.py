"""A game's scenario roll page: its stage, the stage's table, what to avoid, the odds, the roll.

CAMPAIGN_PHASE.md, "The campaign around the battles": each warband's battle about to be played (RULING C-1: the
games it played before this one, plus one) gives its stage (W-1), "the lower stage's table is used", and "a warband
should not play the same scenario twice in a row (reroll)": the scenario of each warband's own previous game is
avoided. The engine decides all of it (`combat.rules.campaign_scenarios`); this reads the rows, in a fixed number
of queries whatever the campaign's size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from campaigns.models import Game, GamePlayer
from combat import rules
from combat.models import CampaignDataSet, GameScenario
from combat.rules.campaign_scenarios import SCENARIO_RULE, STAGE_NAMES
from combat.selectors.campaign_data import current_campaign_data


@dataclass(frozen=True)
class Avoided:
    warband: str
    scenario: str
    game_number: int


@dataclass(frozen=True)
class ScenarioOdds:
    name: str
    chance: Fraction
    words: str
    avoided: bool
    faces: tuple[int, ...]  # the faces of the die that find it


@dataclass
class ScenarioPage:
    game: Game
    players: list[GamePlayer]
    battles: dict[int, int]  # warband id -> the battle this game is for it (C-1)
    stage: str | None = None
    table: rules.ScenarioTable | None = None
    table_version: int | None = None
    table_set: CampaignDataSet | None = None  # the version a roll made now reads
    avoided: list[Avoided] = field(default_factory=list)
    odds: list[ScenarioOdds] = field(default_factory=list)
    roll: GameScenario | None = None
    explanation: str = ""
    problem: str = ""  # why there is nothing to roll (no table, no battle 13), in plain words
    rule: str = SCENARIO_RULE
    sides: int = rules.SCENARIO_DIE

    @property
    def stage_words(self) -> str:
        return STAGE_NAMES.get(self.stage or "", "")

    @property
    def settled(self) -> bool:
        return bool(self.game.scenario) or (self.roll is not None and self.roll.settled)

    @property
    def waiting(self) -> bool:
        """A face was typed in and found a scenario to avoid: the next die is awaited."""
        return self.roll is not None and not self.roll.settled

    @property
    def before_play(self) -> bool:
        """The game has not gone past its own play: being played, or recorded with no post-game started."""
        if self.game.status == Game.Status.IN_PROGRESS:
            return True
        return self.game.status == Game.Status.RECORDED and all(
            player.post_game == GamePlayer.PostGame.PENDING for player in self.players
        )

    @property
    def can_roll(self) -> bool:
        return self.before_play and not self.settled and self.table is not None and not self.problem


def _battles(game: Game, players: list[GamePlayer]) -> dict[int, int]:
    """Each warband's battle number for this game: the games it played before this one, plus one (RULING C-1)."""
    ids = [player.warband_id for player in players]
    before: dict[int, int] = {warband_id: 0 for warband_id in ids}
    for warband_id in (
        GamePlayer.objects.filter(
            warband_id__in=ids, game__number__lt=game.number, game__campaign=game.campaign_id
        )
        .values_list("warband_id", flat=True)
        .iterator()
    ):
        before[warband_id] += 1
    return {warband_id: count + 1 for warband_id, count in before.items()}


def previous_scenarios(game: Game, players: list[GamePlayer]) -> list[Avoided]:
    """The scenario each warband played in its own previous game (the one numbered just below this one), when that
    game has one: "a warband should not play the same scenario twice in a row"."""
    names = {player.warband_id: player.warband.name for player in players}
    latest = (
        GamePlayer.objects.filter(
            warband_id__in=names, game__number__lt=game.number, game__campaign=game.campaign_id
        )
        .order_by("warband_id", "-game__number")
        .distinct("warband_id")
        .values_list("warband_id", "game__scenario", "game__number")
    )
    return [
        Avoided(names[warband_id], scenario.strip(), number)
        for warband_id, scenario, number in latest
        if scenario.strip()
    ]


def _explain(roll: GameScenario, table: rules.ScenarioTable) -> str:
    if not roll.settled:
        last = roll.faces[-1]
        return (
            f"D{table.sides} {last}: {table.lookup(last)}, which a warband of this game played in its previous game. "
            "Roll again."
        )
    result = rules.ScenarioResult(
        faces=tuple(roll.faces),
        scenario=roll.scenario,
        rerolled=tuple(table.lookup(face) for face in roll.faces[:-1]),
        kept_rule=roll.kept_rule,
    )
    return rules.explain_scenario(result, sides=table.sides)


def _from_roll(page: ScenarioPage, roll: GameScenario) -> None:
    """A roll made already reads the table version and the scenarios it was given, not today's."""
    page.roll, page.stage, page.table_version = roll, roll.stage, roll.table.version
    page.table = rules.ScenarioTable.from_rows(roll.table.rows, stage=roll.stage)
    page.avoided = [Avoided("", name, 0) for name in roll.avoided]
    page.explanation = _explain(roll, page.table)


def _odds(page: ScenarioPage, avoid: list[str]) -> None:
    keys = {name.strip().casefold() for name in avoid}
    chances = rules.scenario_odds(page.table, avoid=avoid)
    table = page.table
    page.odds = [
        ScenarioOdds(
            name,
            chance,
            rules.format_odds(chance),
            name.strip().casefold() in keys,
            tuple(
                face for face in range(1, table.sides + 1) if table.lookup(face).casefold() == name.casefold()
            ),
        )
        for name, chance in chances.items()
    ]


def scenario_page(*, game: Game) -> ScenarioPage:
    """The game's scenario: its roll if one was made, else what a roll would read now (four queries at most)."""
    players = list(GamePlayer.objects.filter(game=game).select_related("warband").order_by("id"))
    page = ScenarioPage(game=game, players=players, battles=_battles(game, players))
    roll = GameScenario.objects.filter(game=game).select_related("table", "rolled_by").first()
    if roll is not None:
        _from_roll(page, roll)
        _odds(page, list(roll.avoided))
        return page
    try:
        page.stage = rules.scenario_stage(battles=list(page.battles.values()))
    except ValueError:
        page.problem = "This game has no stage: a warband of it has played every battle of the campaign (12)."
        return page
    data = current_campaign_data(campaign=game.campaign)
    page.table = data.scenario_table(page.stage)
    page.table_version = data.version(f"scenario_table:{page.stage}")
    page.table_set = data.sets.get(f"scenario_table:{page.stage}")
    if page.table is None:
        page.problem = f"The campaign has no {page.stage_words} scenario table yet."
        return page
    page.avoided = previous_scenarios(game, players)
    _odds(page, [avoided.scenario for avoided in page.avoided])
    return page
