"""The history's registry (rosters/history/registry.py): rosters' history knows only the tables that register with
it, names none of combat's, and imports nothing of combat but the rules engine."""

import ast
import re
from pathlib import Path

import pytest
from django.apps import apps

from rosters.history import registry
from rosters.history.registry import Source
from rosters.services.warbands import warband_adjust
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db

ROSTERS = Path(__file__).resolve().parents[2]
HISTORY = ROSTERS / "history"


def _source_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.py") if "tests" not in p.relative_to(ROSTERS).parts]


def _combat_names() -> set[str]:
    """Every way to name one of combat's tables or models by string: its label and its table."""
    names = set()
    for model in apps.get_app_config("combat").get_models():
        names.add(model._meta.label.lower())  # "combat.trackergameevent"
        names.add(model._meta.db_table.lower())  # "combat_trackergameevent"
    return names


def test_rosters_names_no_combat_table_or_model():
    names = _combat_names()
    assert "combat.trackergameevent" in names  # the check knows what it looks for
    found = []
    for path in _source_files(ROSTERS):
        text = path.read_text().lower()
        found += [f"{path.relative_to(ROSTERS)}: {name}" for name in names if re.search(rf"\b{name}\b", text)]
    assert found == []


def test_the_history_package_and_its_pages_never_mention_combat():
    files = _source_files(HISTORY) + [ROSTERS / "views" / "history.py", ROSTERS / "views" / "share.py"]
    found = [
        f"{path.relative_to(ROSTERS)}:{n}"
        for path in files
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "combat" in line.lower()
    ]
    assert found == []


def test_rosters_imports_nothing_of_combat_but_the_rules_engine():
    imported = []
    for path in _source_files(ROSTERS):
        for node in ast.walk(ast.parse(path.read_text())):
            modules = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            imported += [(path.name, m) for m in modules if m.split(".")[0] == "combat"]
    assert all(m == "combat.rules" or m.startswith("combat.rules.") for _, m in imported), imported


def test_every_event_table_read_is_registered_once_in_its_own_rank():
    tables = registry.table_sources()
    assert [s.rank for s in tables] == sorted({s.rank for s in tables})
    assert {"fighter", "warband", "item", "injury", "campaign", "membership", "game", "player"} <= {
        s.name for s in tables
    }
    for source in tables:
        assert source.model._meta.db_table == source.table


def test_a_rank_already_taken_is_refused():
    class Clash(Source):
        name, event_label, rank = "clash", "rosters.FighterEvent", registry.by_name("item").rank

    with pytest.raises(ValueError, match="takes rank"):
        registry.register(Clash())
    assert not registry.has("clash")


@pytest.fixture
def explaining_source():
    class Because(Source):
        name = "test_because"

        def explain(self, entry, look, what):
            return "paid to the ferryman (at the river)" if what == "strongbox" else None

    registry.register(Because())
    yield
    registry.unregister("test_because")


def test_a_registered_source_says_why_another_source_s_event_changed(
    campaign, warband, player, explaining_source
):
    warband_adjust(warband=warband, by=player, strongbox=-5, reason="")
    found = sentences(campaign, kind="strongbox")
    assert found[0].startswith(
        "Iron Sepulchre: Strongbox 50 → 45 ducats (paid to the ferryman, at the river)"
    )
