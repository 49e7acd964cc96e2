"""The post-game told in the history (combat/history/post_game.py): the ransoms behind a Strongbox change and each
fighter's Trauma result after the Apply, with its dice.
"""

import datetime as dt

import pghistory
import pytest

from campaigns.models import GamePlayer
from rosters.models import Warband
from rosters.services.games import GameEntry, game_record
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_a_ransom_paid_in_the_post_game_says_whose_ransom_on_each_strongbox(
    campaign, warband, rival_warband, marcus, game3, player
):
    # The post-game's Apply names each warband's ransom in its context (`ransoms`, warband id -> words); the
    # Strongbox sentence reads it (TRAUMA_TABLE.md 12, Captured: the ducats move to the captor).
    with pghistory.context(
        action="post_game.apply",
        reason=f"Post-game of Game 3 applied to {warband.name}",
        game=game3.pk,
        warband=warband.pk,
        user=player.pk,
        ransoms={
            str(warband.pk): "ransom for Brother Marcus",
            str(rival_warband.pk): "ransom for Brother Marcus (from Iron Sepulchre)",
        },
    ):
        Warband.objects.filter(pk=warband.pk).update(strongbox=35)
        Warband.objects.filter(pk=rival_warband.pk).update(strongbox=45)
    found = sentences(campaign, kind="strongbox")
    assert (
        "Iron Sepulchre: Strongbox 50 → 35 ducats (ransom for Brother Marcus) — post-game of Game 3 by Pat"
        in found
    )
    assert (
        "Heretic Legion: Strongbox 30 → 45 ducats (ransom for Brother Marcus, from Iron Sepulchre) — "
        "post-game of Game 3 by Pat"
    ) in found


@pytest.mark.parametrize("ransoms", [None, {}, {"0": "ransom for someone else"}, "not a mapping", {"1": 5}])
def test_a_strongbox_change_without_its_ransom_in_the_context_still_reads(
    campaign, warband, game3, player, ransoms
):
    extra = {} if ransoms is None else {"ransoms": ransoms}
    with pghistory.context(
        action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk, **extra
    ):
        Warband.objects.filter(pk=warband.pk).update(strongbox=35)
    assert "Iron Sepulchre: Strongbox 50 → 35 ducats — post-game of Game 3 by Pat" in sentences(
        campaign, kind="strongbox"
    )


def _post_game(campaign, warband, rival_warband, fighter, by, *, faces, ransom=None):
    from combat.services.post_game.apply import post_game_apply
    from combat.services.post_game.out_of_action import post_game_set_out_of_action
    from combat.services.post_game.ransom import post_game_answer_ransom
    from combat.services.post_game.rolls import post_game_roll

    game = game_record(
        campaign=campaign,
        by=by,
        played_on=dt.date(2026, 5, 1),
        entries=[
            GameEntry(warband=warband, result="loss", out_of_action=[fighter]),
            GameEntry(warband=rival_warband, result="win"),
        ],
    )
    entry = GamePlayer.objects.get(game=game, warband=warband)
    post_game_set_out_of_action(player=entry, fighter_ids=[fighter.pk], by=by)
    post_game_roll(player=entry, fighter_id=fighter.pk, purpose="trauma", sequence=1, faces=faces, by=by)
    if ransom is not None:
        post_game_answer_ransom(player=entry, fighter_id=fighter.pk, paid=True, ransom=ransom, by=by)
    post_game_apply(player=entry, by=by)
    return game


def test_a_post_game_tells_each_trauma_result_with_its_dice(campaign, warband, rival_warband, marcus, player):
    _post_game(campaign, warband, rival_warband, marcus, player, faces=[1, 4])
    found = sentences(campaign, kind="games")
    index = found.index("Iron Sepulchre finished its post-game of Game 1 — by Pat")
    assert found[index + 1].startswith("Brother Marcus: D66 14, Hand Wound — Battle Scar 1 of 3; ")
    assert found[index + 1].endswith(" — post-game of Game 1, entered by Pat from the table")


def test_a_ransom_without_its_context_reads_the_reason_the_apply_stored(
    campaign, warband, rival_warband, marcus, player
):
    from pghistory.models import Context

    _post_game(campaign, warband, rival_warband, marcus, player, faces=[1, 2], ransom=15)
    # Older applies have no `ransoms` in their context: the Apply's own summary still says why.
    for context in Context.objects.filter(metadata__action="post_game.apply"):
        context.metadata = {k: v for k, v in context.metadata.items() if k != "ransoms"}
        context.save()
    found = sentences(campaign, kind="strongbox")
    assert (
        "Iron Sepulchre: Strongbox 50 → 35 ducats (ransom paid, 15 ducats) — post-game of Game 1, "
        "entered by Pat from the table" in found
    )
    assert any(
        s.startswith("Heretic Legion: Strongbox 30 → 45 ducats (ransom received from Iron Sepulchre)")
        for s in found
    )
    assert any(s.startswith("Brother Marcus: D66 12, Captured, ransom paid") for s in sentences(campaign))


def test_ruling_X_4_the_history_says_why_a_post_game_changed_a_fighters_xp(
    campaign, warband, rival_warband, make_fighter, player
):
    from combat.services.post_game.apply import post_game_apply
    from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
    from combat.tests.post_game_helpers import game_with

    champion = make_fighter(warband, "Champion", elite=True, xp=1)
    troop = make_fighter(warband, "Yeoman Kell", xp=0)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_record_experience(
        player=after.player,
        by=player,
        answers={
            champion.pk: ExperienceAnswer(glorious_deeds=2),
            troop.pk: ExperienceAnswer(glorious_deeds=1),
        },
    )
    post_game_apply(player=after.player, by=player)

    found = sentences(campaign, kind="xp")
    # RULING X-4: +1 for taking part and surviving, +1 for at least one Glorious Deed (not one per Deed).
    assert found == [
        "Champion gained 2 XP (now 3; +1 for taking part and surviving as ELITE; +1 for at least one Glorious "
        "Deed) — post-game of Game 1 by Pat"
    ]


def test_an_xp_change_applied_before_ruling_X_4_reads_as_it_did(campaign, warband, marcus, game3, player):
    # A summary stored before X-4 has no words for the XP: the sentence says what changed and nothing more.
    with pghistory.context(action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk):
        type(marcus).objects.filter(pk=marcus.pk).update(xp=marcus.xp + 3)
    assert sentences(campaign, kind="xp") == [
        f"Brother Marcus gained 3 XP (now {marcus.xp + 3}) — post-game of Game 3 by Pat"
    ]
