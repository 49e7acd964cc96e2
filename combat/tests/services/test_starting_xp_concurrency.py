"""Two tabs ticking a late joiner's starting XP at once, each in its own thread and database connection: the lock
on the warband's row (combat/services/starting_xp.py) applies it once, and the other tab is refused."""

import pytest

from combat.models import StartingXp
from combat.services.starting_xp import StartingXpError, starting_xp_apply, starting_xp_share
from combat.tests.services.post_game.test_concurrency import at_once
from combat.tests.starting_xp_helpers import late_joiner
from rosters.models import Fighter

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_tabs_applying_at_once_tick_the_starting_xp_once(
    campaign, warband, rival_warband, organiser, player2, make_fighter
):
    band = late_joiner(
        campaign=campaign, warband=warband, rival_warband=rival_warband, organiser=organiser, owner=player2
    )
    marcus = make_fighter(band, "Brother Marcus", elite=True)
    starting_xp_share(warband=band, shares={marcus.pk: 1}, by=player2)  # 1 XP reaches no threshold: no card

    first, second = at_once(
        lambda: starting_xp_apply(warband=band, by=player2),
        lambda: starting_xp_apply(warband=band, by=player2),
    )

    results = sorted([first, second], key=lambda result: isinstance(result, Exception))
    assert isinstance(results[0], StartingXp)
    assert isinstance(results[1], StartingXpError), results[1]
    assert "ticked once" in str(results[1])
    assert Fighter.objects.get(pk=marcus.pk).xp == 1
