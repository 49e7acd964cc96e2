"""combat/services/post_game/experience.py: the Experience step's answers, and the XP the Apply gives for them."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.tests.post_game_helpers import (
    casualty,
    enter,
    game_with,
)

pytestmark = pytest.mark.django_db


pytestmark = pytest.mark.django_db


# -- Experience -------------------------------------------------------------------------------------------------


def test_experience_counts_part_taken_glorious_deeds_and_the_organisers_adjustment(
    warband, make_fighter, campaign, rival_warband, player, organiser
):
    champion = make_fighter(warband, "Champion", elite=True, xp=1)
    benched = make_fighter(warband, "Benched", elite=True, xp=1)
    troop = make_fighter(warband, "Troop", xp=0)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_record_experience(
        player=after.player,
        by=player,
        answers={
            champion.pk: ExperienceAnswer(glorious_deeds=2, xp_adjustment=5),  # not the organiser: ignored
            benched.pk: ExperienceAnswer(took_part=False, glorious_deeds=1),
            troop.pk: ExperienceAnswer(glorious_deeds=1),
        },
    )
    post_game_record_experience(
        player=after.player,
        by=organiser,
        answers={champion.pk: ExperienceAnswer(glorious_deeds=2, xp_adjustment=-1)},
        adjust=True,
    )

    post_game_apply(player=after.player, by=player)

    for fighter in (champion, benched, troop):
        fighter.refresh_from_db()
    assert champion.xp == 1 + 1 + 1 - 1  # RULING X-4: 2 Glorious Deeds give 1 XP, as one would
    assert benched.xp == 1
    assert troop.xp == 0  # RULING X-4: a Troop gains no XP; its Glorious Deeds feed the Promotion Pool


def test_the_experience_step_shows_the_engines_award_in_words(
    warband, make_fighter, campaign, rival_warband, player, organiser
):
    champion = make_fighter(warband, "Champion", elite=True, xp=1)
    benched = make_fighter(warband, "Benched", elite=True, xp=1)
    wounded = make_fighter(warband, "Wounded", elite=True, xp=2, can_gain_xp=False)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_record_experience(
        player=after.player,
        by=organiser,
        answers={
            champion.pk: ExperienceAnswer(glorious_deeds=2, xp_adjustment=-1),
            benched.pk: ExperienceAnswer(took_part=False, glorious_deeds=1),
            wounded.pk: ExperienceAnswer(glorious_deeds=3, xp_adjustment=1),
        },
        adjust=True,
    )

    lines = {line.fighter.name: line for line in after.state().xp}

    # RULING X-4: 2 Glorious Deeds give the 1 XP one would.
    assert (lines["Champion"].award.base, lines["Champion"].award.glorious_deeds) == (1, 1)
    assert lines["Champion"].xp_after == 1 + 1 + 1 - 1
    assert lines["Champion"].words == (
        "+1 for taking part and surviving as ELITE; +1 for at least one Glorious Deed. "
        "The organiser adjusted it by -1."
    )
    assert (lines["Benched"].award.reason, lines["Benched"].total) == ("did_not_take_part", 0)
    assert lines["Benched"].deeds_entered == 1  # typed in, not counted
    assert lines["Benched"].words == "Did not take part: no XP."
    assert (lines["Wounded"].award.reason, lines["Wounded"].total) == ("cannot_gain_xp", 1)
    assert lines["Wounded"].words == (
        "No XP: it can no longer gain XP (Head Wound; RULING T-9). The organiser adjusted it by +1."
    )


def test_ruling_X_4_a_troops_deeds_are_told_as_feeding_promotions_and_the_review_says_why_xp_moved(
    warband, make_fighter, campaign, rival_warband, player
):
    champion = make_fighter(warband, "Champion", elite=True, xp=1)
    troop = make_fighter(warband, "Troop", xp=0)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_record_experience(
        player=after.player,
        by=player,
        answers={
            champion.pk: ExperienceAnswer(glorious_deeds=3),
            troop.pk: ExperienceAnswer(glorious_deeds=2),
        },
    )
    state = after.state()
    lines = {line.fighter.name: line for line in state.xp}

    # RULING X-4: "A Troop gains no XP; its Glorious Deeds count only in the Promotion Pool (P-1)."
    assert lines["Troop"].words == (
        "No XP for a Troop: its Glorious Deeds feed Promotions (the Promotion Pool, RULING P-1), not XP "
        "(RULING X-4)."
    )
    # RULING X-4: "1 more if it performed at least one Glorious Deed, however many it performed".
    assert (
        lines["Champion"].words
        == "+1 for taking part and surviving as ELITE; +1 for at least one Glorious Deed."
    )
    # The Review's sentence says why the XP moves; the Troop's row does not change.
    (change,) = state.changes
    assert change.fighter.name == "Champion"
    assert change.sentences == [
        "XP 1 → 3. +1 for taking part and surviving as ELITE; +1 for at least one Glorious Deed."
    ]


def test_a_bitter_lessons_d66_says_what_it_is_while_its_d3_waits(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 6, 5, by=player)

    state = casualty(after, marcus)

    assert state.waiting_for == "d3"
    assert state.explanation == (
        "Brother Marcus: D66 65, Bitter Lessons — gains D3 extra XP; no Injury and no Scar. Roll the D3."
    )
    # Its Experience waits for the D3 too: only the organiser's adjustment would count so far.
    line = next(line for line in after.state().xp if line.id == marcus.pk)
    assert (line.survived, line.award.reason, line.total) == (None, "pending", 0)


def test_glorious_deeds_out_of_range_are_refused(after, fighters, player):
    with pytest.raises(PostGameError, match="Glorious Deeds"):
        post_game_record_experience(
            player=after.player,
            by=player,
            answers={fighters["marcus"].pk: ExperienceAnswer(glorious_deeds=11)},
        )
