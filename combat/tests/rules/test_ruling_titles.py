"""Every ruling has a name a player can read and the rules text it reads: the pages show those, never
the id."""

import re
from pathlib import Path

import pytest

from combat import rules

REPOSITORY = Path(__file__).resolve().parents[3]
RULINGS_MD = REPOSITORY.parent / "shared" / "rules" / "RULINGS.md"


def test_every_ruling_of_the_engine_has_a_name_and_a_source():
    ids = [*rules.RULINGS, *rules.CAMPAIGN_RULINGS]
    assert set(rules.RULING_TITLES) == set(ids)
    for ruling_id in ids:
        assert rules.ruling_title(ruling_id)
        assert rules.ruling_source(ruling_id) in rules.RULING_SOURCES.values()


@pytest.mark.skipif(not RULINGS_MD.exists(), reason="shared/rules/RULINGS.md is not beside the repository")
def test_the_names_cover_exactly_the_rulings_of_rulings_md():
    text = RULINGS_MD.read_text(encoding="utf-8")
    listed = re.findall(r"^- \*\*([A-Z]-\d+)\*\*", text, flags=re.MULTILINE)
    assert list(rules.RULING_TITLES) == listed


def test_a_name_is_looked_up_by_id():
    assert rules.ruling_title("T-4") == "Battle Scars and Unfit For Duty"
    assert rules.ruling_source("T-4") == "Trench Crusade, the Trauma Step"
    assert rules.ruling_source("D-2") == "Fallout: Factions, Damage and Brawl"
    assert rules.ruling_source("X-2") == "Trench Crusade, Experience and Skill Advancement"


@pytest.mark.parametrize("unknown", ["T-99", "Z-1", "", "t-4"])
def test_an_unknown_id_is_refused_by_name(unknown):
    with pytest.raises(ValueError, match="no ruling has the id"):
        rules.ruling_title(unknown)
    with pytest.raises(ValueError, match="no ruling has the id"):
        rules.ruling_source(unknown)


def test_no_name_shows_an_id():
    for title in rules.RULING_TITLES.values():
        assert not re.search(r"[A-Z]-\d", title)
