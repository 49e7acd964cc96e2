"""combat/selectors/post_game/rows.py: each statement written once per process returns what the ORM's queryset it
stands for returns: the same rows, in the same order, every field's value the same, the related rows it joins
set on them as `select_related` and `prefetch_related` set them."""

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, FilteredRelation, Prefetch, Q

from campaigns.models import GamePlayer, Membership
from combat.models import (
    DiceRoll,
    PostGame,
    PostGameAdvancement,
    PostGameFighter,
    PostGameGlory,
    PostGameRoll,
    PostGameTrade,
)
from combat.selectors.post_game import rows
from combat.selectors.post_game.out_of_action import post_game_fighters
from combat.services.post_game.fixes import post_game_correct_roll
from combat.tests.post_game_helpers import enter, record_game
from rosters.models import Fighter, Injury, Item, Skill

pytestmark = pytest.mark.django_db


def _values(instance) -> dict | None:
    if instance is None:
        return None
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def _all_values(instances) -> list:
    return [_values(instance) for instance in instances]


@pytest.fixture
def after(campaign, warband, rival_warband, make_fighter, player):
    """A post-game under way: a Troop and two ELITE fighters Out of Action, one of them with an Injury and one
    with its D66 corrected, a fighter who stayed, Battlekit carried and in the Arsenal, an answer with a captor."""
    troop = make_fighter(warband, "Yeoman Pell")
    hero = make_fighter(warband, "Brother Cain", elite=True, battle_scars=1)
    other = make_fighter(warband, "Sister Agnes", elite=True)
    make_fighter(warband, "Stay-at-home")
    make_fighter(warband, "Long dead", status=Fighter.Status.DEAD)
    Injury.objects.create(fighter=hero, code="hand_wound")
    Item.objects.create(warband=warband, fighter=hero, name="Maul", keywords=["HEAVY"])
    Item.objects.create(warband=warband, name="Relic in the Arsenal")
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[troop, hero, other]
    )
    enter(after, troop, 4, by=player)
    enter(after, hero, 6, 3, by=player)
    wrong = PostGameRoll.objects.get(fighter=hero, purpose="trauma").dice_roll
    post_game_correct_roll(player=after.player, roll_id=wrong.pk, faces=[6, 4], reason="misread", by=player)
    live = PostGame.objects.get(player=after.player)
    PostGameFighter.objects.update_or_create(
        post_game=live, fighter=other, defaults={"captor": rival_warband, "glorious_deeds": 2}
    )
    after.live = live
    return after


@pytest.mark.parametrize("who", ["player", "outsider", None])
def test_the_player_row_is_the_orms_entry_with_its_game_campaign_warband_owner_and_membership(
    after, request, who
):
    user = request.getfixturevalue(who) if who else None
    found = rows.player_row(game_id=after.game.pk, warband_id=after.player.warband_id, user=user)
    orm = GamePlayer.objects.select_related("game__campaign", "warband__owner").get(pk=after.player.pk)
    assert _values(found) == _values(orm)
    assert _values(found.game) == _values(orm.game)
    assert _values(found.game.campaign) == _values(orm.game.campaign)
    assert _values(found.warband) == _values(orm.warband)
    assert _values(found.warband.owner) == _values(orm.warband.owner)
    if who is None:
        assert not hasattr(found, "member_id")
        return
    member = Membership.objects.filter(campaign=after.game.campaign, user=user).first()
    assert (found.member_id, found.member_role) == ((member.pk, member.role) if member else (None, None))


def test_no_player_row_for_a_warband_that_did_not_play(after, player):
    assert rows.player_row(game_id=after.game.pk, warband_id=0, user=player) is None


@pytest.mark.parametrize("for_update", [False, True])
def test_the_fighters_are_the_orms_with_their_mark_injuries_and_battlekit(after, for_update):
    marked = FilteredRelation("out_of_action", condition=Q(out_of_action__player=after.player))
    orm = list(
        Fighter.objects.filter(warband_id=after.player.warband_id)
        .annotate(mark=marked)
        .filter(Q(status=Fighter.Status.ACTIVE) | Q(mark__isnull=False))
        .annotate(out_of_action_mark=F("mark__id"))
        .prefetch_related(Prefetch("injuries", queryset=Injury.objects.order_by("id")), "battlekit")
        .order_by("id")
    )
    with transaction.atomic():
        fighters, items = post_game_fighters(after.player, for_update=for_update)
    assert _all_values(fighters) == _all_values(orm)
    assert [f.out_of_action_mark for f in fighters] == [f.out_of_action_mark for f in orm]
    assert [_all_values(f.injuries.all()) for f in fighters] == [_all_values(f.injuries.all()) for f in orm]
    assert [_all_values(f.battlekit.all()) for f in fighters] == [_all_values(f.battlekit.all()) for f in orm]
    assert all(injury.fighter is fighter for fighter in fighters for injury in fighter.injuries.all())
    assert _all_values(items) == _all_values(
        Item.objects.filter(warband_id=after.player.warband_id).order_by("pk")
    )
    assert len([f for f in fighters if f.out_of_action_mark]) == 3


def test_the_attempts_are_the_orms(after):
    orm = PostGame.objects.filter(player=after.player).order_by("-attempt")
    assert _all_values(rows.attempt_rows(after.player)) == _all_values(orm)


def test_the_rolls_that_count_are_the_orms_with_the_roll_each_stands_in_for(after):
    orm = list(
        PostGameRoll.objects.filter(post_game=after.live, dice_roll__status=DiceRoll.Status.COUNTED)
        .select_related("dice_roll__replaces")
        .order_by("id")
    )
    found = rows.roll_rows(after.live)
    assert _all_values(found) == _all_values(orm)
    assert _all_values(r.dice_roll for r in found) == _all_values(r.dice_roll for r in orm)

    def replaced(roll):
        try:
            return roll.dice_roll.replaces
        except DiceRoll.replaces.RelatedObjectDoesNotExist:
            return None

    assert _all_values(map(replaced, found)) == _all_values(map(replaced, orm))
    assert sum(replaced(roll) is not None for roll in found) == 1  # the corrected D66
    assert all(roll.dice_roll.post_game_roll is roll for roll in found)


def test_the_answers_are_the_orms_with_their_captor(after, rival_warband):
    orm = list(PostGameFighter.objects.filter(post_game=after.live).select_related("captor"))
    found = rows.answer_rows(after.live)
    assert _all_values(found) == _all_values(orm)
    assert _all_values(a.captor for a in found) == _all_values(a.captor for a in orm)
    assert rival_warband.pk in {a.captor_id for a in found}


@pytest.mark.parametrize("with_others", [False, True])
def test_the_locked_entry_is_the_orms_with_the_other_entries_states(after, with_others):
    GamePlayer.objects.filter(pk=after.rival.pk).update(post_game=GamePlayer.PostGame.DONE)
    orm = GamePlayer.objects.select_related("game__campaign", "warband__owner").get(pk=after.player.pk)
    with transaction.atomic():
        assert rows.lock_game(after.game.pk)
        found = rows.locked_player_row(after.player.pk, with_others=with_others)
    assert _values(found) == _values(orm)
    for name in ("game", "warband"):
        assert _values(getattr(found, name)) == _values(getattr(orm, name))
    assert _values(found.game.campaign) == _values(orm.game.campaign)
    assert _values(found.warband.owner) == _values(orm.warband.owner)
    if with_others:
        assert found.others_post_game == [GamePlayer.PostGame.DONE]
    else:
        assert not hasattr(found, "others_post_game")


def test_nothing_to_lock_for_a_game_or_entry_that_does_not_exist(after):
    with transaction.atomic():
        assert not rows.lock_game(0)
        assert rows.locked_player_row(0, with_others=False) is None


def test_the_live_attempt_is_the_orms_never_a_reverted_one(after):
    def orm():
        return PostGame.objects.filter(player=after.player).exclude(status=PostGame.Status.REVERTED).first()

    assert _values(rows.live_attempt_row(after.player)) == _values(orm()) is not None
    PostGame.objects.filter(pk=after.live.pk).update(status=PostGame.Status.REVERTED)
    assert rows.live_attempt_row(after.player) is None is orm()


def test_the_picks_skills_and_people_are_the_orms(after, player, organiser):
    fighters = list(Fighter.objects.filter(warband_id=after.player.warband_id).order_by("id"))
    PostGameAdvancement.objects.bulk_create(
        PostGameAdvancement(
            post_game=after.live,
            fighter=fighter,
            number=number,
            first_chart="ranged",
            second_chart="stealth_speed",
        )
        for fighter in reversed(fighters[1:3])
        for number in (2, 1)
    )
    Skill.objects.bulk_create(
        Skill(fighter=fighter, code=f"skill_{index}", name=f"Skill {index}")
        for index, fighter in enumerate([*fighters, fighters[1]])
    )
    ids = [fighter.pk for fighter in fighters[1:]]

    orm_picks = PostGameAdvancement.objects.filter(post_game=after.live)
    assert _all_values(rows.advancement_rows(after.live)) == _all_values(orm_picks)
    orm_skills = (
        Skill.objects.filter(fighter_id__in=ids).order_by("id").values_list("fighter_id", "code", "name")
    )
    assert rows.skill_rows(ids) == list(orm_skills)
    people = rows.user_rows({player.pk, organiser.pk})
    orm_people = get_user_model().objects.in_bulk([player.pk, organiser.pk])
    assert {pk: _values(user) for pk, user in people.items()} == {
        pk: _values(user) for pk, user in orm_people.items()
    }


@pytest.mark.parametrize("model", [PostGameTrade, PostGameGlory])
def test_the_plans_are_the_orms_with_their_holder(after, model):
    hero = Fighter.objects.get(name="Brother Cain")
    fields = {"post_game": after.live, "name": "Saint's Finger"}
    if model is PostGameGlory:
        fields.update(kind="item", glory=5)
    else:
        fields.update(kind="buy", cost=15)
    model.objects.bulk_create([model(**fields, holder=hero), model(**fields, holder=None)])
    orm = list(model.objects.filter(post_game=after.live).select_related("holder").order_by("id"))
    found = rows.held_rows(model, after.live)
    assert _all_values(found) == _all_values(orm)
    assert _all_values(plan.holder for plan in found) == _all_values(plan.holder for plan in orm)
    assert [plan.holder_id for plan in found] == [hero.pk, None]
