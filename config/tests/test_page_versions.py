"""Who replaces which page tokens, and when (config/page_versions.py): a write to a campaign replaces the tokens
of the pages that show it (its own pages, its rosters and cards, its members' dashboards) once it commits, and no
member's own generation nor any page of another campaign; never for a write that rolled back; nothing at all
without a shared cache."""

import datetime

import pytest
from django.db import transaction
from django.test import override_settings

from campaigns.history_context import history_context
from campaigns.models import Campaign, Game, Membership
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


def dashboards(*users) -> list[str]:
    return [
        page_versions.generations(user.pk, page_versions.scope_key(page_versions.DASHBOARD, user.pk))[2]
        for user in users
    ]


def campaign_tokens(*campaigns) -> list[str]:
    """The tokens of each campaign's own pages and of every page of its warbands and fighters."""
    keys = [
        key
        for c in campaigns
        for key in (page_versions.scope_key("campaign", c.pk), page_versions.within_key(c.pk))
    ]
    return list(page_versions.generations(0, *keys)[2:])


@pytest.fixture
def other_campaign(organiser, player, outsider):
    """Another campaign, which the organiser and the player share with someone of that campaign alone."""
    other = Campaign.objects.create(name="The Quiet Front", created_by=organiser)
    Membership.objects.create(campaign=other, user=organiser, role=Membership.Role.ORGANISER)
    Membership.objects.create(campaign=other, user=player, role=Membership.Role.PLAYER)
    Membership.objects.create(campaign=other, user=outsider, role=Membership.Role.PLAYER)
    return other


def test_a_write_in_a_campaign_replaces_its_pages_and_its_members_dashboards_once_it_commits(
    campaign,
    other_campaign,
    organiser,
    player,
    player2,
    spectator,
    outsider,
    shared,
    django_capture_on_commit_callbacks,
):
    members = (organiser, player, player2, spectator)
    before = {
        "dashboards": dashboards(*members),
        "campaign": campaign_tokens(campaign),
        "generations": tokens(*members, outsider),
        "elsewhere": [*dashboards(outsider), *campaign_tokens(other_campaign)],
    }
    with django_capture_on_commit_callbacks() as pending:
        with history_context(by=organiser, action="test", reason="a write", campaign=campaign.pk):
            pass
        assert dashboards(*members) == before["dashboards"]  # not before the commit
        assert campaign_tokens(campaign) == before["campaign"]
    for callback in pending:
        callback()
    assert all(new != old for new, old in zip(dashboards(*members), before["dashboards"], strict=True))
    assert all(new != old for new, old in zip(campaign_tokens(campaign), before["campaign"], strict=True))
    # Not every page of the members: their pages of the other campaign keep their tokens, and so does every page
    # of someone of the other campaign alone.
    assert tokens(*members, outsider) == before["generations"]
    assert [*dashboards(outsider), *campaign_tokens(other_campaign)] == before["elsewhere"]


def test_a_write_naming_only_its_game_replaces_its_campaigns_pages(
    campaign, other_campaign, organiser, player, shared, django_capture_on_commit_callbacks
):
    game = Game.objects.create(campaign=campaign, number=1, played_on=datetime.date(2025, 1, 1))
    before, elsewhere = [*dashboards(player), *campaign_tokens(campaign)], campaign_tokens(other_campaign)
    with (
        django_capture_on_commit_callbacks(execute=True),
        history_context(by=organiser, action="test", reason="a roll", game=game.pk),
    ):
        pass
    after = [*dashboards(player), *campaign_tokens(campaign)]
    assert all(new != old for new, old in zip(after, before, strict=True))
    assert campaign_tokens(other_campaign) == elsewhere


def test_a_write_naming_no_campaign_replaces_its_writers_pages(
    campaign, organiser, player, shared, django_capture_on_commit_callbacks
):
    before = tokens(organiser, player)
    with (
        django_capture_on_commit_callbacks(execute=True),
        history_context(by=organiser, action="test", reason="a write of no campaign"),
    ):
        pass
    after = tokens(organiser, player)
    assert after[0] != before[0]
    assert after[1] == before[1]


def refused_half_way(campaign, organiser) -> None:
    with (
        transaction.atomic(),
        history_context(by=organiser, action="test", reason="a write", campaign=campaign.pk),
    ):
        raise RuntimeError("refused half way")


def test_a_write_that_rolled_back_replaces_nothing(
    campaign, organiser, player, shared, django_capture_on_commit_callbacks
):
    before = [*tokens(player), *dashboards(player), *campaign_tokens(campaign)]
    with (
        django_capture_on_commit_callbacks(execute=True) as pending,
        pytest.raises(RuntimeError, match="half way"),
    ):
        refused_half_way(campaign, organiser)
    assert pending == []
    assert [*tokens(player), *dashboards(player), *campaign_tokens(campaign)] == before


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


@pytest.mark.parametrize(
    ("action", "only_the_board"),
    [
        ("tracker.damage", True),
        ("tracker.undo", True),
        ("tracker.confusion", True),
        ("tracker.start", False),  # the board is set up from the rosters
        (
            "tracker.end_game",
            False,
        ),  # the game's results, Out of Action, crew XP: the dashboard and the rosters
        ("fighter.update", False),
        (None, False),  # a write that does not say what it was reaches every member
    ],
)
def test_only_the_boards_own_actions_are_board_only(action, only_the_board):
    assert page_versions.board_only(action) is only_the_board


def test_a_board_action_replaces_its_games_scopes_and_no_members_token(
    campaign,
    organiser,
    player,
    player2,
    warband,
    rival_warband,
    make_fighter,
    shared,
    django_capture_on_commit_callbacks,
):
    from campaigns.models import GamePlayer
    from rosters.models import Warband

    brick, fidus = make_fighter(warband, "Brick"), make_fighter(rival_warband, "Fidus")
    bystanders = Warband.objects.create(
        campaign=campaign, owner=organiser, name="Bystanders", faction="Raiders"
    )
    nell = make_fighter(bystanders, "Nell")
    game = Game.objects.create(campaign=campaign, number=1, played_on=datetime.date(2025, 1, 1))
    GamePlayer.objects.create(game=game, warband=warband)
    GamePlayer.objects.create(game=game, warband=rival_warband)
    scopes = {
        "shown": [
            page_versions.scope_key("campaign", campaign.pk),
            page_versions.scope_key("warband", warband.pk),
            page_versions.scope_key("warband", rival_warband.pk),
            page_versions.scope_key("fighter", brick.pk),
            page_versions.scope_key("fighter", fidus.pk),
        ],
        "not shown": [
            page_versions.scope_key("warband", bystanders.pk),
            page_versions.scope_key("fighter", nell.pk),
            page_versions.scope_key("campaign", campaign.pk + 1),
        ],
    }
    before = page_versions.generations(player.pk, *scopes["shown"], *scopes["not shown"])
    with (
        django_capture_on_commit_callbacks(execute=True),
        history_context(
            by=organiser, action="tracker.damage", reason="a tap", game=game.pk, campaign=campaign.pk
        ),
    ):
        pass
    after = page_versions.generations(player.pk, *scopes["shown"], *scopes["not shown"])
    assert after[:2] == before[:2]  # the member's own token and the site's stay
    shown = len(scopes["shown"])
    assert all(new != old for new, old in zip(after[2 : 2 + shown], before[2 : 2 + shown], strict=True))
    assert after[2 + shown :] == before[2 + shown :]


def test_no_service_tells_a_cache_anything_by_hand():
    """Invalidation is driven by what a write touched, from the history context's exit: a service never names a
    cache's tokens nor sends a signal of its own (the board's version, written under the board's row lock, is the
    one value a service keeps, combat/selectors/tracker_poll.py)."""
    from pathlib import Path

    from django.conf import settings

    by_hand = ("page_versions", "access_cache", "campaigns.signals", ".send(", "forget_readers")
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {word}"
        for app in ("campaigns", "rosters", "combat")
        for path in sorted((Path(settings.BASE_DIR) / app / "services").rglob("*.py"))
        for word in by_hand
        if word in path.read_text()
    ]
    assert found == []


def _write(campaign, organiser) -> None:
    with history_context(by=organiser, action="test", reason="a write", campaign=campaign.pk):
        pass


@override_settings(CACHE_IS_SHARED=True)
def test_the_same_write_told_twice_in_one_transaction_replaces_its_pages_once(
    campaign, other_campaign, organiser, django_capture_on_commit_callbacks
):
    # A service's nested history contexts each tell what they wrote: the pages are replaced once per commit, and
    # another campaign written in the same transaction still has its own replacement.
    with django_capture_on_commit_callbacks() as pending, transaction.atomic():
        _write(campaign, organiser)
        _write(campaign, organiser)
        _write(other_campaign, organiser)
    assert len(pending) == 2


@override_settings(CACHE_IS_SHARED=True)
def test_a_replacement_dropped_with_its_savepoint_is_asked_for_again_by_the_next_write(
    campaign, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as pending, transaction.atomic():
        with pytest.raises(RuntimeError, match="half way"):
            refused_half_way(campaign, organiser)
        _write(campaign, organiser)
    assert len(pending) == 1


@override_settings(CACHE_IS_SHARED=True)
def test_a_replacement_that_ran_already_does_not_stand_for_a_later_write(
    campaign, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as first:
        _write(campaign, organiser)
    with django_capture_on_commit_callbacks() as later:
        _write(campaign, organiser)
    assert (len(first), len(later)) == (1, 1)
