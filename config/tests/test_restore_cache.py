"""After a restore nothing of the world before it is served from the cache (config/cache.py, `forget_everything`):
no session the restored database does not have, no kept page of rows the restore took away. Against this
machine's Redis under a prefix of the test's own (config/tests/shared_cache.py), and against local memory."""

import pytest
import redis
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from config.cache import forget_everything
from config.page_cache import MEMBER_COOKIE
from config.tests.shared_cache import REDIS_URL, SharedRedis, shared_redis_or_skip
from rosters.services.fighters import fighter_update

RENAMED = "Gone With The Restore"


@pytest.fixture
def shared():
    redis_server = shared_redis_or_skip()
    yield redis_server
    redis_server.flush()


def kept(client, shared, url: str) -> str:
    """The page read twice, so the second answer is kept (config/tests/test_page_cache.py)."""
    with shared.as_process():
        client.get(url)
        assert MEMBER_COOKIE in client.cookies
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_forgetting_everything_deletes_every_key_of_the_site_and_none_of_another(shared):
    neighbour = SharedRedis()  # another site (or another engineer's run) on the same Redis
    try:
        with neighbour.as_process() as theirs:
            theirs.set("page-gen:1", "theirs")
        with shared.as_process() as ours:
            ours.set_many(
                {"page-gen:1": "a", "page-gen:site": "b", "tracker-version:3": 7, "game-access:3": "c"}
            )
            ours.set("an-old-version", 1, version=2)
            assert len(shared.stored_keys()) == 5
            assert forget_everything() == 5
            assert shared.stored_keys() == []
        with neighbour.as_process() as theirs:
            assert theirs.get("page-gen:1") == "theirs"
    finally:
        neighbour.flush()


def test_a_prefix_with_glob_characters_forgets_only_its_own_keys(shared):
    shared.prefix = shared.prefix + "[x]"
    shared.settings["CACHES"]["default"]["KEY_PREFIX"] = shared.prefix
    lookalike = redis.Redis.from_url(REDIS_URL)
    lookalike_key = shared.prefix.replace("[x]", "x") + ":1:page-gen:1"
    lookalike.set(lookalike_key, "not ours")
    try:
        with shared.as_process() as ours:
            ours.set("page-gen:1", "ours")
            assert forget_everything() == 1
        assert lookalike.get(lookalike_key) == b"not ours"
    finally:
        lookalike.delete(lookalike_key)


def test_forgetting_everything_in_local_memory_empties_this_processs_cache():
    cache.set("page-gen:1", "a")
    forget_everything()
    assert cache.get("page-gen:1") is None


@pytest.mark.django_db(transaction=True)
def test_after_a_restore_no_session_and_no_kept_page_of_the_world_before_is_served(
    tmp_path, warband, player, organiser, make_fighter, shared
):
    brick = make_fighter(warband, "Brick")
    url = f"/warbands/{warband.pk}/"
    in_backup = Client()
    in_backup.force_login(player)
    dump = tmp_path / "ledger.dump"
    call_command("backup", str(dump))

    # After the backup: a fighter renamed, a session opened, and both members' rosters kept showing the new name.
    with shared.as_process():
        fighter_update(fighter=brick, by=organiser, changes={"name": RENAMED})
    not_in_backup = Client()
    not_in_backup.force_login(organiser)
    for client in (in_backup, not_in_backup):
        assert RENAMED in kept(client, shared, url)

    with shared.as_process():
        call_command("restore", str(dump), "--noinput")
        assert shared.stored_keys() == []
        gone = not_in_backup.get(url)
        back = in_backup.get(url)
    assert gone.status_code == 302
    assert gone["Location"].startswith("/accounts/login/")
    assert back.status_code == 200
    assert RENAMED not in back.content.decode()
    assert "Brick" in back.content.decode()


@pytest.mark.django_db
def test_a_restore_whose_redis_is_down_says_the_cache_still_holds_the_world_before(tmp_path, monkeypatch):
    from django.core.management.base import CommandError
    from django.test import override_settings

    from config import backups
    from config.tests.shared_cache import dead_redis_settings

    dump = tmp_path / "ledger.dump"
    dump.write_bytes(b"a backup")
    monkeypatch.setattr(backups, "pg_tool", lambda name: tmp_path / name)
    monkeypatch.setattr(backups, "_run", lambda command, env: None)  # pg_restore, done
    with (
        override_settings(**dead_redis_settings()),
        pytest.raises(
            CommandError, match="The database was restored, but the shared cache could not be emptied"
        ),
    ):
        call_command("restore", str(dump), "--noinput")
