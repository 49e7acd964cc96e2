"""docker-compose.yml gives the web service a Redis 7 with a healthcheck, as its shared cache."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_redis_7_has_a_healthcheck_and_the_web_service_waits_for_it():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    redis = compose["services"]["redis"]
    assert redis["image"] == "redis:7"
    assert "redis-cli" in redis["healthcheck"]["test"]
    web = compose["services"]["web"]
    assert web["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert web["depends_on"]["redis"] == {"condition": "service_healthy"}


def test_the_readme_says_how_to_run_several_instances():
    readme = (ROOT / "README.md").read_text()
    assert "Several web instances" in readme
    assert "DATABASE_POOL_SIZE" in readme
    assert "REDIS_URL" in readme
