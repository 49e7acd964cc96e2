"""Skill Advancement Rolls, one way for both flows that make them: the post-game's Advancement step
(combat/services/post_game/advancement.py) and a late joiner's starting XP (combat/services/starting_xp.py).

CAMPAIGN_PHASE.md (RULINGS X-1 to X-3, docs/rules.md): "the player picks 2 of the 4 skill charts", rolls 2D6 on each,
and "the model takes one of the two skills so found"; a skill already known is not found again, and what an earlier
roll took counts as known for the next. Each card (`combat/selectors/post_game/advancement.py`) works out where a
roll stands; here are the checks of each write against it, the 2D6 stored by the roll store, the skill taken and the
picks a correction leaves without their skill. Each flow passes its own error (`error`), so a refusal reads as that
flow's, and holds its own locks and history context.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from combat.models import DiceRoll, PostGameRoll
from combat.models.advancement import SkillAdvancementChoice
from combat.models.campaign_data import SKILL_CHARTS
from combat.selectors.post_game.advancement import AdvancementCard, ChartRoll, Option
from combat.services import roll_store

ADVANCEMENT = PostGameRoll.Purpose.ADVANCEMENT
Error = Callable[[str], Exception]


def refuse_unsettled_earlier(card: AdvancementCard, number: int, *, error: Error) -> None:
    """RULING X-3: a card waits for the fighter's earlier one, whose skill counts as known for it."""
    if card.waiting_for == "earlier":
        raise error(
            f"Settle {card.name}'s Skill Advancement Roll {number - 1} first: what it takes counts as known for "
            "the next one (RULING X-3)."
        )


def check_charts(
    card: AdvancementCard, charts: Sequence[str], first_chart: str, second_chart: str, *, error: Error
) -> None:
    """Two different charts of the campaign's, while no die is rolled on the charts picked before."""
    for chart in (first_chart, second_chart):
        if chart not in charts:
            raise error(f"{SKILL_CHARTS.get(chart, repr(chart))} is not one of the campaign's skill charts.")
    if first_chart == second_chart:
        raise error("Pick two different skill charts.")
    if any(chart.roll is not None for chart in card.charts):
        raise error(
            f"{card.name}'s dice are rolled on {card.charts[0].words} and {card.charts[1].words}: the charts stand."
        )


def chart_defaults(first_chart: str, second_chart: str) -> dict[str, str]:
    """A card's row with its two charts picked (again): no skill taken yet."""
    return {
        "first_chart": first_chart,
        "second_chart": second_chart,
        "skill_code": "",
        "skill_name": "",
        "skill_chart": "",
    }


def roll_sequence(number: int, die: int, *, error: Error) -> int:
    """The stored sequence of chart `die` (1 or 2) of Skill Advancement Roll `number`."""
    if die not in (1, 2):
        raise error("A Skill Advancement Roll is one 2D6 on each of its two charts: die 1 or 2.")
    return 2 * number - 2 + die


def chart_to_roll(card: AdvancementCard, die: int, *, error: Error) -> ChartRoll:
    if not card.charts:
        raise error(f"Pick {card.name}'s two skill charts before rolling.")
    return card.charts[die - 1]


def advancement_label(name: str, chart_words: str, faces: Sequence[int]) -> str:
    """The roll in the dice log's words: "Sister Agnes: Skill Advancement 2D6 on Ranged, 9 (4+5)"."""
    return f"{name}: Skill Advancement 2D6 on {chart_words}, {sum(faces)} ({'+'.join(str(f) for f in faces)})"


def store_chart_roll(
    *,
    card: AdvancementCard,
    chart: ChartRoll,
    faces: Sequence[int] | None,
    refused: roll_store.Refused,
    by,
    campaign_id: int,
    warband_id: int,
    game_id: int | None = None,
    note: str = "",
) -> DiceRoll:
    """One chart's 2D6, rolled by the server (`faces` None) or typed in, stored by the roll store before it is
    shown (`note` ends its label, e.g. " (starting XP)")."""
    return roll_store.roll_dice(
        faces=faces,
        sides=6,
        count=2,
        refused=refused,
        campaign_id=campaign_id,
        game_id=game_id,
        warband_id=warband_id,
        fighter_id=card.fighter.pk,
        purpose=ADVANCEMENT,
        by=by,
        label=lambda rolled: advancement_label(card.name, chart.words, rolled) + note,
    )


def option_to_take(card: AdvancementCard, skill_code: str, *, error: Error) -> Option:
    """The skill asked for, when it is one the card's two 2D6 found (or a Patron's the fighter lacks)."""
    if not card.charts or card.next_roll is not None:
        raise error(f"Roll {card.name}'s 2D6 on both charts before picking a skill.")
    option = next((option for option in card.options if option.code == skill_code), None)
    if option is None:
        if skill_code in card.known:
            raise error(f"{card.name} already has that skill: pick one it lacks (RULING X-3).")
        found = ", ".join(option.name for option in card.options) or "nothing"
        raise error(f"That skill is not among the skills found ({found}).")
    return option


def take(record: SkillAdvancementChoice, option: Option, *, exclude: Sequence[str]) -> SkillAdvancementChoice:
    """The skill taken, checked as the model's fields allow and saved."""
    record.skill_code, record.skill_name, record.skill_chart = option.code, option.name, option.chart
    record.full_clean(exclude=list(exclude))
    record.save(update_fields=["skill_code", "skill_name", "skill_chart"])
    return record


def clear_lost_picks(cards: Sequence[AdvancementCard]) -> bool:
    """After a correction or a void of a 2D6 the skill found is worked out again from the new faces: a pick no
    longer among the skills found is cleared, and its card waits for a new pick. Whether one was cleared."""
    lost = [
        card.record
        for card in cards
        if card.record is not None
        and card.record.skill_code
        and card.picked is None
        and card.waiting_for == "pick"
    ]
    for record in lost:
        record.take(code="", name="", chart="")
    return bool(lost)
