"""One Redis for every web process: what one process writes, the next read through another sees.

Each `as_process()` block has cache connections of its own, as another gunicorn worker or host would
(config/tests/shared_cache.py); both talk to this machine's Redis under a key prefix of this test's own.
"""

import pytest
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings
from django.utils.module_loading import import_string

from config.cache import cache_config
from config.tests.shared_cache import shared_redis_or_skip
from rosters.services.fighters import fighter_adjust_xp, fighter_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    yield redis
    redis.flush()


def test_a_login_on_one_process_is_read_from_redis_by_another(
    client, player, shared, django_assert_num_queries
):
    with shared.as_process():
        client.force_login(player)
        key = client.cookies["sessionid"].value
    with shared.as_process(), django_assert_num_queries(0):
        session = SessionStore(session_key=key).load()
    assert session["_auth_user_id"] == str(player.pk)
    with shared.as_process():
        other = Client()
        other.cookies["sessionid"] = key
        assert b"pat_player" in other.get("/").content


def test_a_logout_on_one_process_ends_the_session_on_every_other(client, player, shared):
    with shared.as_process():
        client.force_login(player)
        key = client.cookies["sessionid"].value
    with shared.as_process():
        other = Client()
        other.cookies["sessionid"] = key
        other.post("/accounts/logout/")
    with shared.as_process():
        stale = Client()
        stale.cookies["sessionid"] = key
        response = stale.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_roster_changed_through_one_process_is_shown_fresh_by_another(
    client, warband, player, make_fighter, shared
):
    brick = make_fighter(warband, "Brick", xp=1)
    url = f"/warbands/{warband.pk}/"
    with shared.as_process():
        client.force_login(player)
        assert "Brick" in client.get(url).content.decode()
    assert any(b"template.cache" in key for key in shared.stored_keys())  # its fragments live in Redis
    with shared.as_process():
        fighter_update(fighter=brick, by=player, changes={"name": "Brick the Second"})
        fighter_adjust_xp(fighter=brick, delta=2, by=player)
    with shared.as_process():
        page = client.get(url).content.decode()
    assert "Brick the Second" in page


def test_without_redis_each_process_has_its_own_memory():
    config = cache_config(None)
    assert config["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


def test_a_redis_url_chooses_djangos_redis_backend():
    config = cache_config("redis://redis:6379/0", key_prefix="ledger")
    assert config["BACKEND"] == "config.cache.SharedClientRedisCache"
    assert issubclass(import_string(config["BACKEND"]), DjangoRedisCache)
    assert config["LOCATION"] == "redis://redis:6379/0"
    assert config["KEY_PREFIX"] == "ledger"


def test_a_process_reuses_one_redis_client_for_every_call(shared):
    with shared.as_process() as cache:
        cache.set("reused", 1)
        client = cache._cache.get_client(write=True)
        assert cache.get("reused") == 1
        assert cache._cache.get_client() is client
        assert cache._cache.get_client(write=True) is client


def test_a_redis_url_that_is_not_one_is_refused():
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must be a Redis URL"):
        cache_config("http://redis:6379")


def test_a_redis_that_cannot_be_reached_answers_the_short_503_page(player):
    browser = Client(raise_request_exception=False)
    browser.force_login(player)  # a session in the database, which the cache is then asked to hold
    unreachable = {"default": cache_config("redis://127.0.0.1:1/0", key_prefix="nowhere")}
    with override_settings(
        CACHES=unreachable, CACHE_IS_SHARED=True, SESSION_ENGINE="django.contrib.sessions.backends.cached_db"
    ):
        response = browser.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
