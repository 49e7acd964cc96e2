"""combat/views/post_game/apply.py: the Apply through the page, within its query budget."""

import pytest
from django.urls import reverse

from combat.models import PostGame
from combat.tests.post_game_helpers import enter, game_with
from rosters.models import Fighter, Item

pytestmark = pytest.mark.django_db

# The Apply of ten fighters through the page: the session, the user, the entry read with the membership (one
# query), then the service (21: combat/tests/services/post_game/test_apply.py) with its BEGIN and COMMIT. It was 60
# on the bench's post-game before model validation stopped asking the database once per CheckConstraint.
APPLY_BUDGET = 24


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


# The Apply of a whole post-game through the page, the bench's (bench/bench_post_game.py): ten fighters Out of
# Action among fourteen, two skills taken, a promotion, the Exploration's Location and loot, a recruit and a purchase,
# a Glory Item and another benefit. The session, the user, the entry with the membership; then the game and the
# entry locked (the other warbands' post-game states read with it), the state read once (the attempt, the fighters,
# their Injuries and Battlekit, the rolls, the answers, the people they name, the campaign data, the trades, the
# Exploration's record, the skill cards and known skills, the Glory spends); the writes: the fighters in one
# UPDATE, the Battlekit to the Arsenal and the Battlekit lost, the warband locked, the promotion tally, every new
# row (Injuries, skills, the Location, the recruit, the Battlekit, the ledger's entries) in one statement, the
# warband's Strongbox and Glory, the attempt, the entry marked done; and the transaction's BEGIN and COMMIT.
WHOLE_APPLY_BUDGET = 29


def _whole_post_game(client, campaign, organiser, warband, rival_warband):
    """The bench's post-game walked through the pages up to its Review; returns the URL maker."""
    from combat.services.campaign_data import campaign_data_copy_demo
    from combat.tests.post_game_helpers import record_game

    campaign_data_copy_demo(campaign=campaign, by=organiser)
    type(warband).objects.filter(pk=warband.pk).update(strongbox=60, glory=8)
    troops = [Fighter.objects.create(warband=warband, name=f"Troop {index}") for index in range(7)]
    elites = [
        Fighter.objects.create(
            warband=warband,
            name=f"Elite {index}",
            keywords=["ELITE"],
            xp=index,
            battle_scars=2 * (index == 5),
        )
        for index in range(7)
    ]
    Item.objects.bulk_create(
        Item(warband=warband, fighter=fighter, name=f"Kit {kit}", keywords=["HEAVY"] if kit == 0 else [])
        for fighter in troops + elites
        for kit in range(3)
    )
    troops, elites = troops[:4], elites[:6]
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=troops + elites
    )

    def url(name):
        return reverse(name, args=[after.game.pk, warband.pk])

    def post(name, data):
        response = client.post(url(name), data)
        assert response.status_code in (200, 302), (name, data, response.status_code)

    post("post_game_out_of_action", {"fighters": [fighter.pk for fighter in troops + elites]})
    faces = [[1], [2], [3], [6], [1, 4], [1, 1], [3, 6], [3, 4], [4, 4], [2, 5]]
    for fighter, (first, *second) in zip(troops + elites, faces, strict=True):
        step, purpose = ("troops", "survival") if fighter in troops else ("elites", "trauma")
        data = {"fighter": fighter.pk, "purpose": purpose, "sequence": 1, "step": step, "mode": "enter"}
        post("post_game_roll", {**data, "first": first, **({"second": second[0]} if second else {})})
    post("post_game_experience", {f"deeds_{elites[0].pk}": 1})
    for fighter in (elites[0], elites[3]):
        card = {"fighter": fighter.pk, "number": 1}
        post(
            "post_game_advancement",
            {**card, "do": "charts", "first_chart": "ranged", "second_chart": "stealth_speed"},
        )
        for die, (first, second) in ((1, (4, 5)), (2, (3, 3))):
            data = {**card, "do": "roll", "die": die, "mode": "enter", "first": first, "second": second}
            post("post_game_advancement", data)
        post("post_game_advancement", {**card, "do": "pick", "skill": "long_shadow_shot"})
    survivors = troops[2:]
    post("post_game_promotions", {"action": "assign", "extra": 0, **{f"dice_{f.pk}": 1 for f in survivors}})
    for sequence, (fighter, face) in enumerate(zip(survivors, (3, 2), strict=True), start=1):
        die = {"action": "roll", "fighter": fighter.pk, "sequence": sequence, "mode": "enter", "first": face}
        post("post_game_promotions", die)
    post("post_game_dismiss", {})
    post("post_game_reinforcements", {"action": "decline"})
    post("post_game_exploration", {"action": "roll", "mode": "roll", "modifier": 1})
    post("post_game_trade", {"action": "recruit", "recruit-name": "Yeoman Pell", "recruit-cost": 20})
    post(
        "post_game_trade", {"action": "buy", "buy-name": "Grenades", "buy-cost": 15, "buy-holder": "arsenal"}
    )
    post("post_game_trade", {"action": "pass"})
    item = {"action": "spend", "glory-kind": "item", "glory-name": "Saint's Finger", "glory-glory": 5}
    post("post_game_glory", {**item, "glory-holder": "arsenal"})
    vow = {"action": "spend", "glory-kind": "benefit", "glory-name": "Vow", "glory-glory": 3}
    post("post_game_glory", {**vow, "glory-benefit": "a vow kept"})
    post("post_game_glory", {"action": "pass"})
    return after, url


def test_applying_a_whole_post_game_from_the_page_stays_within_its_query_budget(
    client, campaign, organiser, player, warband, rival_warband, django_assert_max_num_queries
):
    client.force_login(player)
    after, url = _whole_post_game(client, campaign, organiser, warband, rival_warband)

    with django_assert_max_num_queries(WHOLE_APPLY_BUDGET):
        response = client.post(url("post_game_apply"))

    assert response.status_code == 302
    live = PostGame.objects.get(player=after.player)
    assert live.status == PostGame.Status.APPLIED
    assert len(live.snapshot["skills_created"]) == 2
    assert len(live.snapshot["trade_part"]["items_created"]) == 1
    assert len(live.snapshot["glory_part"]["items_created"]) == 1
    assert Fighter.objects.filter(warband=warband, name="Yeoman Pell").exists()
