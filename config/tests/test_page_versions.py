"""Who replaces whose page generation, and when (config/page_versions.py): every member's, once a write to their
campaign commits; never for a write that rolled back; nothing at all without a shared cache."""

import datetime

import pytest
from django.db import transaction
from django.test import override_settings

from campaigns.history_context import history_context
from campaigns.models import Game
from config import page_versions
from config.tests.shared_cache import shared_redis_or_skip

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    with redis.as_process():
        yield redis
    redis.flush()


def tokens(*users) -> list[str]:
    return [page_versions.generations(user.pk)[0] for user in users]


def test_a_write_in_a_campaign_replaces_every_members_token_once_it_commits(
    campaign, organiser, player, player2, spectator, outsider, shared, django_capture_on_commit_callbacks
):
    members = (organiser, player, player2, spectator)
    before, outside = tokens(*members), tokens(outsider)
    with django_capture_on_commit_callbacks() as pending:
        with history_context(by=organiser, action="test", reason="a write", campaign=campaign.pk):
            pass
        assert tokens(*members) == before  # not before the commit
    for callback in pending:
        callback()
    after = tokens(*members)
    assert all(new != old for new, old in zip(after, before, strict=True))
    assert tokens(outsider) == outside


def test_a_write_naming_only_its_game_replaces_the_campaigns_members(
    campaign, organiser, player, shared, django_capture_on_commit_callbacks
):
    game = Game.objects.create(campaign=campaign, number=1, played_on=datetime.date(2025, 1, 1))
    before = tokens(player)
    with (
        django_capture_on_commit_callbacks(execute=True),
        history_context(by=organiser, action="test", reason="a roll", game=game.pk),
    ):
        pass
    assert tokens(player) != before


def refused_half_way(campaign, organiser) -> None:
    with (
        transaction.atomic(),
        history_context(by=organiser, action="test", reason="a write", campaign=campaign.pk),
    ):
        raise RuntimeError("refused half way")


def test_a_write_that_rolled_back_replaces_nothing(
    campaign, organiser, player, shared, django_capture_on_commit_callbacks
):
    before = tokens(player)
    with (
        django_capture_on_commit_callbacks(execute=True) as pending,
        pytest.raises(RuntimeError, match="half way"),
    ):
        refused_half_way(campaign, organiser)
    assert pending == []
    assert tokens(player) == before


def test_a_users_own_row_saved_replaces_theirs_and_their_fellow_members(
    campaign, player, player2, outsider, shared, django_capture_on_commit_callbacks
):
    before, outside = tokens(player, player2), tokens(outsider)
    with django_capture_on_commit_callbacks(execute=True):
        player2.first_name = "Quinn"
        player2.save()
    assert all(new != old for new, old in zip(tokens(player, player2), before, strict=True))
    assert tokens(outsider) == outside


def test_the_site_token_is_replaced_for_everything(shared, django_capture_on_commit_callbacks, player):
    before = page_versions.generations(player.pk)
    with django_capture_on_commit_callbacks(execute=True):
        page_versions.everything_changed()
    after = page_versions.generations(player.pk)
    assert after[0] == before[0]
    assert after[1] != before[1]


def test_without_a_shared_cache_nothing_is_scheduled(campaign, organiser, django_capture_on_commit_callbacks):
    with override_settings(CACHE_IS_SHARED=False), django_capture_on_commit_callbacks() as pending:
        with history_context(by=organiser, action="test", reason="a write", campaign=campaign.pk):
            pass
        page_versions.users_changed(organiser.pk)
        page_versions.everything_changed()
    assert pending == []
