"""Tests for combat/rules/campaign.py: the campaign phase's public names (docs/engine.md, `campaign.py`),
its rulings (C-, P-, X-, E-, W- of RULINGS.md) in plain sentences, each pinned by a test named after
it, and each mapped in docs/rules.md."""

import inspect
import re
from pathlib import Path

import pytest

import combat.rules
from combat.rules import CAMPAIGN_RULINGS, RULINGS, campaign_ruling

TESTS = Path(__file__).resolve().parent
REPOSITORY = TESTS.parents[2]
CAMPAIGN_IDS = (
    *(f"C-{number}" for number in range(1, 5)),
    *(f"P-{number}" for number in range(1, 8)),
    # RULINGS.md lists X-4 (Experience, replacing an earlier reading) between.
    "X-1",
    "X-2",
    "X-4",
    "X-3",
    *(f"E-{number}" for number in range(1, 5)),
    *(f"W-{number}" for number in range(1, 3)),
)

# docs/engine.md, `campaign.py` and `campaign_*.py`: each function's parameters as (name, kind, default).
POSITIONAL, KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
NONE = inspect.Parameter.empty
SIGNATURES = {
    "gain_xp": [
        ("xp", POSITIONAL, NONE),
        ("gained", POSITIONAL, NONE),
        ("limited_potential", KEYWORD, False),
        ("elite", KEYWORD, True),
    ],
    "skill_for": [("chart", POSITIONAL, NONE), ("roll", POSITIONAL, NONE), ("known", KEYWORD, frozenset())],
    "promotion_pool": [
        ("won", KEYWORD, NONE),
        ("glorious_deeds", KEYWORD, NONE),
        ("elite_count", KEYWORD, NONE),
        ("extra", KEYWORD, 0),
    ],
    "check_promotion_dice": [
        ("assignment", POSITIONAL, NONE),
        ("pool", KEYWORD, NONE),
        ("eligible", KEYWORD, NONE),
    ],
    "roll_promotions": [
        ("order", POSITIONAL, NONE),
        ("dice", POSITIONAL, NONE),
        ("failed_before", KEYWORD, NONE),
    ],
    "campaign_limits": [("battle", KEYWORD, NONE), ("starting_value", KEYWORD, 700)],
    "sale_value": [("cost", POSITIONAL, NONE)],
    "purchase_order": [("strongbox", KEYWORD, NONE), ("purchases", KEYWORD, NONE)],
    "reinforcement_budget": [("threshold", KEYWORD, NONE), ("warband_value", KEYWORD, NONE)],
    "exploration_dice": [("battles_fought", KEYWORD, NONE)],
    "exploration_tables": [("battles_fought", KEYWORD, NONE)],
    "exploration_score": [("faces", POSITIONAL, NONE), ("modifier", KEYWORD, 0)],
    "loot": [("score", POSITIONAL, NONE)],
    "find_locations": [
        ("score", POSITIONAL, NONE),
        ("tables", KEYWORD, NONE),
        ("allowed", KEYWORD, NONE),
        ("found", KEYWORD, frozenset()),
    ],
    "campaign_stage": [("battle", POSITIONAL, NONE)],
    "rank_standings": [("rows", POSITIONAL, NONE)],
}
# docs/engine.md's frozen dataclasses and their fields, in order.
DATACLASSES = {
    "XpGain": ("xp", "advancements"),
    "SkillEntry": ("roll", "code", "name"),
    "PromotionResult": ("promoted", "rolls", "failed_after"),
    "CampaignLimits": ("threshold", "field_strength"),
    "Purchase": ("name", "cost", "quantity"),
    "PurchaseOrder": ("purchases", "total", "strongbox", "left"),
    "Location": ("score", "code", "name", "table"),
    "Standing": ("warband", "victory_points", "wins", "disbanded"),
}


def test_every_engine_md_name_of_the_campaign_phase_is_public():
    names = {"ADVANCEMENT_XP", "MAX_ELITE", "SkillChart", "LocationTable", *SIGNATURES, *DATACLASSES}
    assert names <= set(combat.rules.__all__)
    assert combat.rules.ADVANCEMENT_XP == (2, 4, 7, 10, 14, 18)
    assert combat.rules.MAX_ELITE == 6
    for cls in (combat.rules.SkillChart, combat.rules.LocationTable):
        assert inspect.ismethod(cls.from_rows)
        assert inspect.ismethod(cls.problems)


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_the_functions_take_the_arguments_engine_md_gives(name):
    parameters = inspect.signature(getattr(combat.rules, name)).parameters.values()
    assert [(parameter.name, parameter.kind, parameter.default) for parameter in parameters] == SIGNATURES[
        name
    ]


@pytest.mark.parametrize("name", sorted(DATACLASSES))
def test_the_results_are_frozen_dataclasses_with_engine_md_fields(name):
    cls = getattr(combat.rules, name)
    assert cls.__dataclass_params__.frozen
    assert tuple(cls.__dataclass_fields__) == DATACLASSES[name]


def test_every_campaign_ruling_has_a_plain_sentence_and_a_test_named_after_it():
    assert tuple(CAMPAIGN_RULINGS) == CAMPAIGN_IDS
    assert not set(CAMPAIGN_RULINGS) & set(RULINGS)
    # X-4, the XP a battle gives, is experience.py's, pinned in test_experience.py.
    defined = _defined_tests([*TESTS.glob("test_campaign*.py"), TESTS / "test_experience.py"])
    for ruling_id in CAMPAIGN_IDS:
        assert campaign_ruling(ruling_id).endswith(".")
        prefix = f"test_{ruling_id.lower().replace('-', '_')}_"
        assert any(name.startswith(prefix) for name in defined), ruling_id
    with pytest.raises(ValueError, match="no campaign ruling has the id 'Z-1'"):
        campaign_ruling("Z-1")


def _defined_tests(paths) -> set[str]:
    return {
        name
        for path in paths
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    }


def _rulings_md() -> Path | None:
    for candidate in (
        REPOSITORY.parent / "shared" / "rules" / "RULINGS.md",
        REPOSITORY / "shared" / "rules" / "RULINGS.md",
    ):
        if candidate.exists():
            return candidate
    return None


@pytest.mark.skipif(_rulings_md() is None, reason="shared/rules/RULINGS.md is not beside the repository")
def test_the_campaign_rulings_are_those_of_rulings_md():
    text = _rulings_md().read_text(encoding="utf-8")
    assert tuple(re.findall(r"^- \*\*([CPXEW]-\d+)\*\*", text, flags=re.MULTILINE)) == CAMPAIGN_IDS


@pytest.mark.skipif(_rulings_md() is None, reason="shared/rules/RULINGS.md is not beside the repository")
def test_docs_rules_md_names_every_ruling_of_rulings_md_with_tests_that_exist():
    # test_rulings.py checks the D-, A-, H-, T- rulings; this one every id RULINGS.md has, today's included.
    every_id = re.findall(
        r"^- \*\*([A-Z]-\d+)\*\*", _rulings_md().read_text(encoding="utf-8"), flags=re.MULTILINE
    )
    assert set(CAMPAIGN_IDS) <= set(every_id)
    text = (REPOSITORY / "docs" / "rules.md").read_text(encoding="utf-8")
    for ruling_id in every_id:
        assert f"| {ruling_id} " in text, ruling_id
    section = text[text.index("## The rest of the post-battle sequence") :]
    named = set(re.findall(r"\b(test_\w+)`", section)) | set(re.findall(r"::(test_\w+)", section))
    assert named
    assert named - _defined_tests(TESTS.glob("test_*.py")) == set()
    for ruling_id in CAMPAIGN_IDS:
        assert re.search(
            rf"^\| {ruling_id} .*`test_{ruling_id.lower().replace('-', '_')}_\w+`", section, re.M
        ), ruling_id
