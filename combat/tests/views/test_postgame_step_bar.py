"""combat/views/post_game/common.py `step_bar`: a step is ticked once it is done, never while it is filled in."""

import pytest
from django.urls import reverse

from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.tests.post_game_helpers import enter, record_game
from combat.views.post_game.common import step_bar

pytestmark = pytest.mark.django_db


@pytest.fixture
def rolled(campaign, warband, rival_warband, make_fighter, player):
    """Every roll made (Brother Marcus: Hand Wound, no D3): the post-game picks up at the Review."""
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[marcus]
    )
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 4, by=player)
    return after


def ticks(state, current: str) -> dict[str, bool]:
    return {item["key"]: item["done"] for item in step_bar(state, current)}


def test_the_experience_step_is_not_ticked_while_it_is_the_current_step(rolled):
    state = rolled.state()
    # Every roll made; Reinforcements (worth 0, under the Threshold Value) and the Exploration Dice are
    # what is left (no skill charts here: the Advancement is on paper).
    assert state.current_step == "reinforcements"

    assert ticks(state, "experience") == {
        "out-of-action": True,
        "troops": True,
        "elites": True,
        "experience": False,
        # The steps after Experience: ticked once the wizard has gone past them, the current one not.
        "advancement": True,
        "promotions": True,
        "dismiss": True,
        "reinforcements": False,
        "exploration": False,
        "trade": False,
        "glory": False,
        "review": False,
    }
    assert ticks(state, "review")["experience"] is True


def test_a_later_step_is_not_ticked_while_it_is_filled_in(rolled):
    state = rolled.state()
    assert ticks(state, "promotions")["promotions"] is False
    assert ticks(state, "review")["promotions"] is True


def test_the_experience_page_shows_its_number_not_a_tick(client, rolled, player):
    client.force_login(player)
    page = client.get(reverse("post_game_experience", args=[rolled.game.pk, rolled.player.warband_id]))
    content = page.content.decode()
    assert '<span class="step-number">4</span> Experience' in content
    assert '<span class="step-number">✓</span> Experience' not in content


def test_the_compact_bar_says_the_step_its_number_of_all_and_the_steps_around_it(client, rolled, player):
    """Twelve step buttons filled a phone's first screen on every step: the compact bar (shown under 700 px) is one
    line with previous and next, the whole list folded one tap away; the full list stays for wide screens."""
    client.force_login(player)
    args = [rolled.game.pk, rolled.player.warband_id]
    content = client.get(reverse("post_game_reinforcements", args=args)).content.decode()
    compact = content[content.index('id="step-compact"') : content.index('<div class="step-full">')]
    assert "Step 8 of 12:</span> <strong>Reinforcements</strong>" in compact
    assert f'href="{reverse("post_game_dismiss", args=args)}" rel="prev"' in compact
    assert f'href="{reverse("post_game_exploration", args=args)}" rel="next"' in compact
    assert "<summary>All 12 steps</summary>" in compact
    assert compact.count('class="step-number"') == 12  # the whole list, folded
    full = content[content.index('<div class="step-full">') :]
    assert full.count('class="step-number"') == 12


def test_the_first_and_last_steps_have_no_step_beyond_them(rolled):
    from combat.views.post_game.common import step_position

    state = rolled.state()
    first = step_position(step_bar(state, "out-of-action"))
    assert (first["number"], first["count"], first["previous"]) == (1, 12, None)
    assert first["next"]["key"] == "troops"
    last = step_position(step_bar(state, "review"))
    assert (last["number"], last["next"], last["previous"]["key"]) == (12, None, "glory")
    assert step_position(step_bar(state, "overview")) is None
