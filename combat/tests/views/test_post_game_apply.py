"""combat/views/post_game/apply.py: the Apply through the page, within its query budget."""

import pytest
from django.urls import reverse

from combat.models import PostGame
from combat.tests.post_game_helpers import enter, game_with
from rosters.models import Fighter, Item

pytestmark = pytest.mark.django_db

# The Apply of ten fighters through the page: the session, the user, the access check, then the service (22:
# combat/tests/services/post_game/test_apply.py) and the redirect. It was 60 on the bench's post-game before model
# validation stopped asking the database once per CheckConstraint.
APPLY_BUDGET = 30


def test_applying_ten_fighters_from_the_page_stays_within_its_query_budget(
    client, warband, rival_warband, campaign, make_fighter, player, django_assert_max_num_queries
):
    out = []
    for index in range(10):
        fighter = make_fighter(
            warband, f"Fighter {index}", elite=index >= 4, battle_scars=2 if index == 9 else 0
        )
        Item.objects.bulk_create(
            [Item(warband=warband, fighter=fighter, name=f"Kit {index}.{kit}") for kit in range(3)]
        )
        out.append(fighter)
    after = game_with(out, campaign=campaign, warband=warband, rival_warband=rival_warband)
    faces = {0: [1], 1: [2], 2: [3], 3: [6], 4: [1, 4], 5: [1, 1], 6: [3, 6], 7: [3, 4], 8: [4, 4], 9: [2, 5]}
    for index, fighter in enumerate(out):
        enter(after, fighter, *faces[index], by=player)
    client.force_login(player)

    with django_assert_max_num_queries(APPLY_BUDGET):
        response = client.post(reverse("post_game_apply", args=[after.game.pk, warband.pk]))

    assert response.status_code == 302
    assert PostGame.objects.get(player=after.player).status == PostGame.Status.APPLIED
    statuses = dict(Fighter.objects.filter(pk__in=[f.pk for f in out]).values_list("name", "status"))
    assert statuses["Fighter 0"] == "dead"
    assert statuses["Fighter 9"] == "unfit_for_duty"
