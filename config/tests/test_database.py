"""Where the database is (config/database.py): the embedded server's socket URL and the URL handed to a child."""

import dj_database_url
import pytest

from config.database import database_config, database_url

SOCKET_URL = "postgresql://postgres:@/postgres?host=/srv/ledger/.data/postgres"


def test_the_embedded_servers_socket_folder_is_the_connections_host(monkeypatch, tmp_path):
    """pgserver's URL names its socket folder as `?host=`: pg_dump and the tests read HOST, and an empty HOST
    sends them to PostgreSQL's default socket, another server or none."""
    monkeypatch.setenv("DATABASE_URL", SOCKET_URL)
    config = database_config(tmp_path)
    assert config["HOST"] == "/srv/ledger/.data/postgres"
    assert "host" not in config["OPTIONS"]


@pytest.mark.parametrize(
    ("settings", "url"),
    [
        (
            {
                "USER": "postgres",
                "PASSWORD": "",
                "HOST": "/srv/ledger/.data/postgres",
                "PORT": "",
                "NAME": "x",
            },
            "postgres://postgres@/x?host=%2Fsrv%2Fledger%2F.data%2Fpostgres",
        ),
        (
            {"USER": "ledger", "PASSWORD": "p@ss", "HOST": "db", "PORT": 6543, "NAME": "warband_ledger"},
            "postgres://ledger:p%40ss@db:6543/warband_ledger",
        ),
        (
            {"USER": "postgres", "PASSWORD": "", "HOST": "", "PORT": "", "NAME": "x"},
            "postgres://postgres@127.0.0.1:5432/x",
        ),
    ],
)
def test_a_child_process_is_given_a_url_to_the_same_server(settings, url, monkeypatch, tmp_path):
    assert database_url(settings) == url
    monkeypatch.setenv("DATABASE_URL", url)
    again = database_config(tmp_path)
    for key in ("USER", "PASSWORD", "NAME"):
        assert again[key] == settings[key]
    assert again["HOST"] == (settings["HOST"] or "127.0.0.1")
    assert str(again["PORT"] or "") == str(settings["PORT"] or ("5432" if not settings["HOST"] else ""))


def test_a_url_can_name_another_database_on_the_same_server():
    settings = {"USER": "postgres", "PASSWORD": "", "HOST": "/run/pg", "PORT": "", "NAME": "test_ledger"}
    assert dj_database_url.parse(database_url(settings, name="test_ledger_restored"))["NAME"] == (
        "test_ledger_restored"
    )
