"""Rolling a game's scenario: by the server's dice or typed in from the table (RULING T-7).

CAMPAIGN_PHASE.md, "The campaign around the battles": "a warband should not play the same scenario twice in a row
(reroll)". The engine rolls (`combat.rules.roll_scenario`); each face is stored in the dice log before anything is
shown (docs/architecture.md, Randomness), and the game's row is locked for the roll, so two tabs rolling the same game
roll it once: the second is given the first one's result. A face typed in that finds a scenario to avoid is kept,
and the page asks for the next die; the server's dice roll on until the rule is kept.
"""

from __future__ import annotations

from django.db import transaction

from campaigns.history_context import history_context
from campaigns.models import Game
from combat import rules
from combat.models import DiceRoll, GameScenario
from combat.selectors.scenario import ScenarioPage, scenario_page
from combat.services import roll_store

ROLL = "scenario.roll"


class ScenarioError(Exception):
    """A scenario roll that cannot be made, in plain words."""


class _StoredThenServer:
    """The faces stored so far (a reroll typed in before), then the server's dice."""

    def __init__(self, stored: list[int]) -> None:
        self._stored = list(stored)
        self._server = rules.RandomDice()
        self.log: list[rules.Roll] = []

    def roll(self, sides: int) -> int:
        face = self._stored.pop(0) if self._stored else self._server.roll(sides)
        self.log.append(rules.Roll(sides, face, "server"))
        return face


def _refusal(game: Game, page: ScenarioPage) -> str | None:
    if page.settled:
        return f"Game {game.number}'s scenario is {game.scenario} already."
    if not page.before_play:
        return f"Game {game.number}'s post-game has started: its scenario is no longer rolled."
    if page.problem:
        return f"{page.problem} The organiser enters or imports one on the campaign data pages."
    return None


def _new_roll(game: Game, page: ScenarioPage, by) -> GameScenario:
    return GameScenario(
        game=game,
        campaign_id=game.campaign_id,
        stage=page.stage,
        table=page.table_set,
        avoided=[avoided.scenario for avoided in page.avoided],
        faces=[],
        rolled_by=by,
    )


def _resolve(roll: GameScenario, table: rules.ScenarioTable, face: int | None) -> rules.ScenarioResult | None:
    """The engine's result over every face stored plus this one, or None while a typed-in reroll is awaited."""
    if face is None:
        return rules.roll_scenario(table, _StoredThenServer(roll.faces), avoid=roll.avoided)
    try:
        return rules.roll_scenario(table, rules.ScriptedDice([*roll.faces, face]), avoid=roll.avoided)
    except rules.DiceExhausted:
        return None
    except ValueError as error:
        raise ScenarioError(f"That roll cannot be right: {error}.") from error


def _store_faces(game: Game, roll: GameScenario, table, faces: list[int], *, by, source: str) -> DiceRoll:
    stored = None
    for face in faces:
        found = table.lookup(face)
        again = (
            " (rolled again: a warband of this game played it last)"
            if found.casefold() in {name.casefold() for name in roll.avoided} and roll.kept_rule
            else ""
        )
        stored = roll_store.store_faces(
            faces=[face],
            sides=table.sides,
            source=source,
            campaign_id=game.campaign_id,
            game_id=game.pk,
            purpose="scenario",
            by=by,
            label=f"Game {game.number} scenario: D{table.sides} {face}, {found}{again}",
        )
    return stored


@transaction.atomic
def game_scenario_roll(*, game: Game, by, face: int | None = None) -> tuple[GameScenario, bool]:
    """Roll the game's scenario on its stage's table (`face` None: the server's dice; else the die typed in).
    Returns the roll and whether this call rolled (False: the scenario was rolled already, by another tab)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    page = scenario_page(game=game)
    if page.roll is not None and page.roll.settled:
        return page.roll, False
    refusal = _refusal(game, page)
    if refusal:
        raise ScenarioError(refusal)
    roll = page.roll or _new_roll(game, page, by)
    result = _resolve(roll, page.table, face)
    new_faces = [face] if result is None else list(result.faces[len(roll.faces) :])
    if result is not None:
        roll.scenario, roll.kept_rule = result.scenario, result.kept_rule
    source = DiceRoll.Source.SERVER if face is None else DiceRoll.Source.ENTERED
    last = _store_faces(game, roll, page.table, new_faces, by=by, source=source)
    roll.faces = [*roll.faces, *new_faces]
    reason = (
        f"Game {game.number}'s scenario: {roll.scenario}"
        if roll.settled
        else f"Game {game.number}'s scenario roll found a scenario to avoid"
    )
    with history_context(by=by, action=ROLL, reason=reason, game=game.pk, roll=last.pk):
        roll.full_clean(exclude=["game", "table"])
        roll.save()
        if roll.settled:
            game.scenario = roll.scenario
            game.save(update_fields=["scenario"])
    return roll, True
