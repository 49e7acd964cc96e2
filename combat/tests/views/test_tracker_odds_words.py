"""The odds table of a target's page never contradicts itself: the rows of the Damage table and the end
state are said apart, and a row that ends in Incapacitation through Excess Harm says so."""

import re
from fractions import Fraction

import pytest

from combat import rules
from combat.models import TrackerFighter
from combat.selectors.tracker_attack import AttackTest, attack_dice_pool, tracker_attack_odds
from combat.tests.tracker_helpers import target_url, text

pytestmark = pytest.mark.django_db


def at_harm_limit_with_one_of_two_injuries(table) -> TrackerFighter:
    # Vera: Endurance 4, Health 2, Harm Limit 3 (the model's default); 3 Harm and 1 of her 2 Injuries.
    TrackerFighter.objects.filter(pk=table.tracked("Vera").pk).update(harm=3, injuries=1)
    return table.tracked("Vera")


def test_the_engine_says_any_hit_incapacitates_at_the_harm_limit_with_one_injury_left(table):
    vera = at_harm_limit_with_one_of_two_injuries(table)
    pool = attack_dice_pool(
        vera, AttackTest()
    )  # 2 dice against 5, + 3 Bonus Dice for her 3 Harm (000 "Harm")
    assert pool.pool == 5
    rows = {row.key: row for row in tracker_attack_odds(vera, pool)}
    # RULING D-1: Incapacitated outright needs Damage 8 (double Endurance 4); 5 dice cannot reach it.
    assert rows["incapacitated"].chance == 0
    # RULING D-2 and D-8: 1 Harm at the Harm Limit is Excess Harm, an Injury, the second of 2: Incapacitated.
    assert rows["incapacitated_after"].chance == 1 - Fraction(1, 2) ** 5
    assert rows["incapacitated_after"].words == "97%"
    assert rows["incapacitated_after"].end_state
    assert not any(row.end_state for key, row in rows.items() if key != "incapacitated_after")
    # The rows sum to 1: exactly one row is reached; the end state is not one of them.
    assert sum(row.chance for row in rows.values() if not row.end_state) == 1
    assert (
        rows["harm"].detail
        == "for Vera now: 1 Harm, which is Excess Harm: an Injury (RULING D-2): Incapacitated (RULING D-8)"
    )
    odds = rules.damage_odds(
        rules.Combatant(endurance=4, health=2, harm=3, harm_limit=3, injuries=1), dice_count=5, stat=5
    )
    assert {key: row.chance for key, row in rows.items()} == odds


def test_the_page_says_which_is_the_row_and_which_the_end_state(client, table, player):
    at_harm_limit_with_one_of_two_injuries(table)
    client.force_login(player)
    page = text(client.get(target_url(table, "Vera")))
    rows, end_state = re.search(
        r'<tbody class="odds-rows">(.*?)</tbody>\s*<tbody class="odds-end-state">(.*?)</tbody>', page, re.S
    ).groups()
    assert "This Damage's row of the Damage table (one of these)" in rows
    assert re.search(
        r"Incapacitated outright \(Damage 8 or more\)</th><td class=\"num odds\">no chance", rows
    )
    # The rulings show by name, linked to the rules page, never by id.
    assert re.search(
        r"for Vera now: 1 Harm, which is Excess Harm: an Injury \(<a class=\"ruling\" href=\"/rules/#ruling-D-2\""
        r"[^>]*>Excess Harm</a>\): Incapacitated \(<a class=\"ruling\" href=\"/rules/#ruling-D-8\"[^>]*>"
        r"Incapacitated by Injuries</a>\)",
        rows,
    )
    assert "RULING" not in rows
    assert "Incapacitated either way" not in rows
    assert "The end state (any row)" in end_state
    assert re.search(
        r"Incapacitated either way<span[^>]*>: the end state after this attack[^<]*</span></th>", end_state
    )
    assert '<td class="num odds">97%</td>' in end_state
