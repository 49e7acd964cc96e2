"""A late joiner's starting XP in the history (combat/history/starting_xp.py): one sentence per fighter at the
Apply, with the skills it took, registered at rank 15; the shares typed before it tell nothing."""

import pytest

from combat.history.starting_xp import StartingXpSource
from combat.services.starting_xp import starting_xp_apply, starting_xp_share
from combat.tests.starting_xp_helpers import late_joiner, settle
from rosters.history import registry
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_combat_registers_the_starting_xp_below_the_tracker():
    source = registry.by_name("starting_xp")
    assert isinstance(source, StartingXpSource)
    assert source.rank == 15
    assert [s.name for s in registry.table_sources() if s.rank == 15] == ["starting_xp"]
    assert registry.by_name("tracker").rank > source.rank


def test_the_apply_tells_each_fighter_its_starting_xp_and_skills(
    campaign, warband, rival_warband, organiser, player2, make_fighter
):
    band = late_joiner(
        campaign=campaign, warband=warband, rival_warband=rival_warband, organiser=organiser, owner=player2
    )
    agnes = make_fighter(band, "Sister Agnes", elite=True)
    starting_xp_share(warband=band, shares={agnes.pk: 3}, by=player2)
    settle(band, agnes, by=player2, skill="long_shadow_shot")
    assert not any("late joiner" in s for s in sentences(campaign, fighter_id=agnes.pk))
    starting_xp_apply(warband=band, by=player2)
    told = sentences(campaign, fighter_id=agnes.pk)
    assert any(
        s.startswith(
            "Sister Agnes started with 3 XP as a late joiner: Skill Advancement — Ranged 9, Long Shadow Shot"
        )
        for s in told
    ), told
    assert any(
        s.startswith("Sister Agnes learnt Long Shadow Shot (Ranged 9; ")
        and "of its starting XP as a late joiner)" in s
        for s in told
    ), told
    # The XP and the skill are told by the roster's own sources, with why, not the whole sentence again.
    assert any(
        s.startswith("Sister Agnes gained 3 XP") and "its starting XP as a late joiner" in s for s in told
    ), told
