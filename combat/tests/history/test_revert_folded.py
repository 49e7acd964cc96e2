"""A post-game's revert in the feed: one line that
says what was undone, by whom and how many changes it took back, which opens on every sentence of the revert; the
lines around it are not folded."""

import pytest
from django.urls import reverse

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.revert import post_game_revert
from combat.tests.post_game_helpers import game_with
from combat.tests.services.post_game.fix_helpers import type_script
from rosters.history.entries import HistoryFilter, HistoryFold
from rosters.history.feed import history_page
from rosters.models import Item

pytestmark = pytest.mark.django_db


@pytest.fixture
def reverted(campaign, warband, rival_warband, make_fighter, player):
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=5, battle_scars=2)
    Item.objects.create(warband=warband, fighter=ada, name="Shield")
    after = game_with([marcus, ada], campaign=campaign, warband=warband, rival_warband=rival_warband)
    # Marcus: Hand Wound; Ada: a third Battle Scar, Unfit For Duty, her Shield to the Arsenal (RULING T-4).
    type_script(after, [(marcus, (1, 4)), (ada, (2, 4))], by=player)
    post_game_apply(player=after.player, by=player)
    post_game_revert(player=after.player, by=player)
    return after


def _items(campaign):
    """Every item the feed lists, across its game headings (inside one test transaction every event has the same
    moment, so a game's heading can be split by the events between games)."""
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk))
    return [item for group in page.groups for item in group.items], page


def test_the_revert_is_one_fold_with_every_sentence_it_took_back(campaign, reverted):
    items, _page = _items(campaign)
    folds = [item for item in items if item.folded]

    assert len(folds) == 1
    fold = folds[0]
    assert isinstance(fold, HistoryFold)
    assert fold.title == f"Post-game of Game 1 undone by Pat: {len(fold.changes)} changes taken back"
    told = [change.sentence for change in fold.changes]
    assert len(told) >= 3
    assert any("Brother Marcus" in sentence and "Hand Wound" in sentence for sentence in told)
    assert any("Sister Ada" in sentence for sentence in told)
    assert all("undone" in sentence for sentence in told)


def test_the_apply_before_it_is_not_folded(campaign, reverted):
    items, page = _items(campaign)
    single = [item for item in items if not item.folded]
    assert any(entry.action == "post_game.apply" for entry in single)
    # Only a revert's lone line under another heading stands outside its fold.
    assert sum(entry.action == "post_game.revert" for entry in single) <= 1
    # Every entry of the page is shown once: folded or not.
    shown = [entry for item in items for entry in (item.entries if item.folded else [item])]
    assert sorted(id(entry) for entry in shown) == sorted(id(entry) for entry in page.entries)


def test_the_feed_page_shows_the_fold_as_a_disclosure(client, campaign, reverted, player):
    client.force_login(player)
    page = client.get(reverse("campaign_history", args=[campaign.pk]))
    content = page.content.decode()

    assert page.status_code == 200
    assert content.count('<li class="history-item history-fold">') == 1
    assert '<summary><span class="history-sentence">Post-game of Game 1 undone by Pat:' in content
