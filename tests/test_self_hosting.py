"""docker-compose.yml describes PostgreSQL 16 with a volume and healthcheck, and a web service waiting for it."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def docker_compose_works() -> bool:
    if not shutil.which("docker"):
        return False
    result = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
    return result.returncode == 0


def test_compose_config_is_valid_where_docker_compose_runs(tmp_path):
    if not docker_compose_works():
        pytest.skip("docker compose is not available here; the YAML checks below still run")
    env = (ROOT / ".env.example").read_text()
    (tmp_path / ".env").write_text(env)
    result = subprocess.run(
        [
            "docker",
            "compose",
            "-f",
            str(ROOT / "docker-compose.yml"),
            "--env-file",
            str(tmp_path / ".env"),
            "config",
            "-q",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr


def test_postgres_16_keeps_its_data_in_a_named_volume_and_has_a_healthcheck(compose):
    db = compose["services"]["db"]
    assert db["image"] == "postgres:16"
    volume = db["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])


def test_the_web_service_waits_for_a_healthy_database(compose):
    web = compose["services"]["web"]
    assert web["build"] == "."
    assert web["depends_on"]["db"]["condition"] == "service_healthy"
    assert "@db:5432/" in web["environment"]["DATABASE_URL"]


def test_the_image_runs_migrations_then_gunicorn():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11-slim" in dockerfile
    assert "migrate --noinput && exec gunicorn" in dockerfile
    assert "collectstatic" in dockerfile


def test_the_example_environment_names_every_required_setting():
    env = (ROOT / ".env.example").read_text()
    for name in ("SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "POSTGRES_PASSWORD"):
        assert f"{name}=" in env


def make_target(name: str) -> str:
    """The recipe of one Makefile target (its lines up to the next blank line)."""
    makefile = (ROOT / "Makefile").read_text()
    match = re.search(rf"^{name}:.*?\n((?:\t.*\n)+)", makefile, flags=re.MULTILINE)
    assert match, f"the Makefile has no {name} target"
    return match.group(1)


def test_make_run_serves_as_production_through_config_serve():
    """gunicorn with DEBUG off and WhiteNoise (config/serve.py, config/tests/test_serve.py), not runserver."""
    recipe = make_target("run")
    assert "-m config.serve --host $(HOST) --port $(PORT)" in recipe
    assert "runserver" not in recipe
    assert "DEBUG" not in recipe


def test_make_dev_keeps_runserver_and_debug_for_development():
    recipe = make_target("dev")
    assert "manage.py runserver $(HOST):$(PORT)" in recipe
    assert "DEBUG=$${DEBUG:-true}" in recipe
