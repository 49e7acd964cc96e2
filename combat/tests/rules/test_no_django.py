"""combat/rules/ is pure Python: no Django, nothing but the standard library (docs/architecture.md, docs/engine.md)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import combat.rules

RULES = Path(combat.rules.__file__).parent
REPOSITORY = RULES.parents[1]

# The public face of the engine, as docs/engine.md names it.
ENGINE_NAMES = {
    "Dice", "Roll", "RandomDice", "ScriptedDice", "DiceExhausted", "d66", "d3",
    "roll_test", "StatTestResult",
    "Combatant", "inflict_damage", "DamageOutcome", "confusion_test", "can_take_fatigue", "HarshLessons",
    "brawl_bonus_dice", "MAKESHIFT_WEAPON",
    "UnitModel", "allocate_damage", "Allocation",
    "HealthPool", "lose_health_points", "PoolLoss", "Formation", "remove_casualties",
    "TraumaTable", "TraumaEntry", "Casualty", "trauma_step", "TraumaOutcome", "settle_capture",
    "hit_distribution", "damage_odds", "trauma_odds",
    "INJURY_RESULTS", "MAX_MARKERS", "ARMOUR", "TcModel", "InjuryRoll", "injury_pool", "InjuryPool",
    "resolve_injury", "InjuryOutcome", "injury_odds",
}  # fmt: skip


def _imports(path: Path) -> list[tuple[str, int]]:
    """The absolute modules a file imports, with their line numbers (relative imports stay in the package)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, node.lineno))
    return found


def test_no_file_under_combat_rules_imports_django():
    files = sorted(RULES.rglob("*.py"))
    assert files, RULES
    offenders = [
        f"{path.relative_to(REPOSITORY)}:{line} imports {module}"
        for path in files
        for module, line in _imports(path)
        if module == "django" or module.startswith("django.")
    ]
    assert offenders == []


def test_combat_rules_imports_nothing_but_the_standard_library():
    offenders = [
        f"{path.relative_to(REPOSITORY)}:{line} imports {module}"
        for path in sorted(RULES.rglob("*.py"))
        for module, line in _imports(path)
        if module.split(".")[0] not in sys.stdlib_module_names and module != "__future__"
    ]
    assert offenders == []


def test_importing_combat_rules_loads_no_django_module():
    environment = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    environment["PYTHONPATH"] = str(REPOSITORY)
    script = (
        "import sys, combat.rules\n"
        "print(sorted(name for name in sys.modules if name == 'django' or name.startswith('django.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPOSITORY,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_combat_rules_exports_every_name_of_engine_md():
    assert ENGINE_NAMES - set(combat.rules.__all__) == set()
    assert all(hasattr(combat.rules, name) for name in combat.rules.__all__)


def test_combat_rules_ships_its_trauma_tables_as_data():
    assert sorted(path.name for path in (RULES / "data" / "trauma_tables").glob("*.json")) == [
        "trench-crusade-1.0.json"
    ]
