"""The shape of the house (docs/architecture.md), checked so it stays that way.

Each test reads the source as text or syntax trees; none imports the apps. A failure names the file and line to
change, so a newcomer learns the rule from the message.
"""

import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("campaigns", "rosters", "combat")
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60


def _is_test_or_migration(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return (
        "tests" in parts
        or "migrations" in parts
        or path.name in {"conftest.py"}
        or path.name.startswith("test_")
    )


def _code_files(*tops: str) -> list[Path]:
    return sorted(
        path for top in tops for path in (ROOT / top).rglob("*.py") if not _is_test_or_migration(path)
    )


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # Each name as the module path it reaches: `from combat import rules` is combat.rules, the engine.
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


@pytest.mark.parametrize(
    ("app", "forbidden"),
    [
        ("campaigns", ("rosters", "combat", "config")),
        ("rosters", ("combat", "config")),
        ("combat", ("config",)),
    ],
)
def test_imports_run_down_the_layers(app, forbidden):
    """campaigns imports neither rosters nor combat; rosters does not import combat; no app imports config (it
    sits on top). The pure engine, combat.rules, may be called by every app for a rule."""
    wrong = [
        f"{_where(path, line)} imports {module}"
        for path in _code_files(app)
        for line, module in _imports(path)
        if any(_under(module, top) for top in forbidden) and not _under(module, "combat.rules")
    ]
    assert wrong == []


def test_only_combat_views_and_commands_import_combat_services():
    allowed = ("combat/views/", "combat/management/", "combat/services/")
    wrong = [
        f"{_where(path, line)} imports {module}"
        for path in _code_files(*APPS, "config")
        for line, module in _imports(path)
        if _under(module, "combat.services") and not str(path.relative_to(ROOT)).startswith(allowed)
    ]
    assert wrong == []


def test_no_module_passes_400_lines():
    long = [
        f"{path.relative_to(ROOT)}: {count} lines"
        for path in _code_files(*APPS, "config", "bench")
        if (count := len(path.read_text().splitlines())) > MAX_FILE_LINES
    ]
    assert long == []


def test_no_function_passes_60_lines():
    long = []
    for path in _code_files(*APPS, "config", "bench"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{_where(path, node.lineno)} {node.name}: {length} lines")
    assert long == []


def test_rosters_names_no_combat_table():
    """What must be told across apps registers itself (the history): rosters never spells combat's tables."""
    pattern = re.compile(r"combat[_.](?!rules\b)\w*", re.IGNORECASE)
    wrong = []
    for path in [*_code_files("rosters"), *sorted((ROOT / "templates" / "rosters").rglob("*.html"))]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0] if path.suffix == ".py" else line
            if pattern.search(code):
                wrong.append(f"{_where(path, number)}: {line.strip()}")
    assert wrong == []


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


def test_no_template_has_an_inline_script_or_handler():
    """A strict Content-Security-Policy allows no inline script: behaviour comes from static/js/ledger.js and
    htmx attributes (hx-confirm), never <script> bodies or on* attributes."""
    wrong = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if INLINE_SCRIPT.search(line) or INLINE_HANDLER.search(line):
                wrong.append(f"{_where(path, number)}: {line.strip()}")
    assert wrong == []


CITING_SUFFIXES = (".py", ".html", ".js", ".css")
DOC_PATH = re.compile(r"\bdocs/([\w-]+\.md)")
# Design notes that once lived outside the repository; docs/ holds their content now.
OUTSIDE_DOC = re.compile(
    r"\b(?:ARCHITECTURE|ENGINE|PRODUCT|STYLE|PITFALLS|DEVELOPERS)\.md\b|\.\./shared\b|\bshared/docs/"
)


def _citing_files() -> list[Path]:
    """Every file of ours whose comments may cite a doc: code, templates, scripts, styles and the README."""
    skipped = {".venv", ".data", "node_modules", "staticfiles", "mutants", "vendor", "__pycache__"}
    found = [ROOT / "README.md"]
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = sorted(
            name for name in subfolders if name not in skipped and not name.startswith(".")
        )
        found += [Path(folder) / name for name in sorted(names) if name.endswith(CITING_SUFFIXES)]
    return found


def test_every_doc_the_code_cites_is_in_the_repository():
    """A citation such as `docs/engine.md` resolves inside a checkout: docs/architecture.md, engine.md, rules.md
    and development.md hold the design, so a reader never needs a file outside the repository."""
    missing = []
    for path in _citing_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            missing += [
                f"{_where(path, number)} cites docs/{name}"
                for name in DOC_PATH.findall(line)
                if not (ROOT / "docs" / name).is_file()
            ]
    assert missing == []


def test_no_code_cites_a_design_note_outside_the_repository():
    """Cite docs/architecture.md, docs/engine.md, docs/rules.md or docs/development.md instead of the old notes."""
    wrong = [
        f"{_where(path, number)}: {line.strip()}"
        for path in _citing_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE_DOC.search(line)
    ]
    assert wrong == []


def test_no_field_wrapper_is_written_by_hand():
    """Field markup comes from FORM_RENDERER's one field template (templates/forms/field.html)."""
    wrapper = re.compile(r'<div class="field">\s*\{\{[^}]*as_field_group')
    wrong = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.html")
        if wrapper.search(path.read_text())
    ]
    assert wrong == []


def test_views_run_no_queries_of_their_own():
    """Views parse, call one service or selector, and render: no ORM manager in a view module."""
    wrong = []
    for app in APPS:
        for path in _code_files(f"{app}/views") if (ROOT / app / "views").is_dir() else []:
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if ".objects." in line.split("#", 1)[0]:
                    wrong.append(f"{_where(path, number)}: {line.strip()}")
    assert wrong == []


def test_services_speak_no_http():
    """Services raise domain errors; views map them to status codes."""
    wrong = []
    for path in [p for app in APPS for p in _code_files(app) if "services" in p.relative_to(ROOT).parts]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    targets = item.targets if isinstance(item, ast.Assign) else []
                    if any(isinstance(t, ast.Name) and t.id in {"status", "status_code"} for t in targets):
                        wrong.append(f"{_where(path, item.lineno)}: {node.name}.{targets[0].id}")
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("django.http"):
                wrong.append(f"{_where(path, node.lineno)}: imports {node.module}")
    assert wrong == []


ROLL_STORE = ROOT / "combat" / "services" / "roll_store.py"
DICE_ROLL_WRITES = {"create", "bulk_create", "get_or_create", "update_or_create"}


def _dice_roll_creations(path: Path) -> list[int]:
    """The lines of `path` that create a DiceRoll: `DiceRoll(...)`, `DiceRoll.objects.create(...)` and the other
    writes of its manager (`bulk_create`, `get_or_create`, `update_or_create`, through `objects` or
    `_default_manager`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = isinstance(func, ast.Name) and func.id == "DiceRoll"
        managed = (
            isinstance(func, ast.Attribute)
            and func.attr in DICE_ROLL_WRITES
            and isinstance(func.value, ast.Attribute)
            and func.value.attr in {"objects", "_default_manager"}
            and isinstance(func.value.value, ast.Name)
            and func.value.value.id == "DiceRoll"
        )
        if called or managed:
            found.append(node.lineno)
    return sorted(found)


def test_only_the_roll_store_creates_a_dice_roll():
    """Every die the project rolls or is given goes through combat/services/roll_store.py, which checks the faces
    against the engine's dice and stores the roll with its purpose and who rolled it (docs/architecture.md,
    Randomness). Tests, migrations and the benchmarks' seeding write their fixtures as they like."""
    wrong = [
        _where(path, line)
        for path in _code_files(*APPS, "config")
        if path != ROLL_STORE
        for line in _dice_roll_creations(path)
    ]
    assert wrong == [], "create DiceRolls through combat.services.roll_store, not here: " + ", ".join(wrong)


def test_the_dice_roll_check_sees_each_way_of_creating_one(tmp_path):
    source = tmp_path / "module.py"
    source.write_text(
        "DiceRoll.objects.create(faces=[3])\n"
        "rolls = DiceRoll.objects.bulk_create([DiceRoll(faces=[4])])\n"
        "DiceRoll._default_manager.get_or_create(faces=[5])\n"
        "DiceRoll.objects.filter(faces=[6]).update(label='')\n"
    )
    assert _dice_roll_creations(source) == [1, 2, 2, 3]


POST_GAME_SELECTORS = ROOT / "combat" / "selectors" / "post_game"


def _package_imports(path: Path, package: str) -> set[str]:
    """The modules of `package` this module imports, those under `if TYPE_CHECKING:` included: `from package import
    step` and `from package.step import name` both reach `package.step`."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if _under(alias.name, package)}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == package:
                found |= {f"{package}.{alias.name}" for alias in node.names}
            elif _under(node.module, package):
                found.add(node.module)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in the graph, as the modules around it (None when there is none)."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            found = visit(imported, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return None


def test_the_post_game_selectors_import_in_no_circle():
    """combat/selectors/post_game/ has no import circle, counting the imports made only for type checking: the
    step modules import the state's type from `base`, which imports no step, and the registry (`steps`) imports
    the steps."""
    package = "combat.selectors.post_game"
    graph = {
        f"{package}.{path.stem}" if path.stem != "__init__" else package: _package_imports(path, package)
        for path in POST_GAME_SELECTORS.glob("*.py")
    }
    graph = {module: imported - {module} for module, imported in graph.items()}
    cycle = _cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def _private_imports(path: Path) -> list[tuple[int, str]]:
    """`from x import _name` of the project's own modules (relative or absolute), as (line, "x._name")."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if node.level == 0 and module.split(".")[0] not in (*APPS, "config", "bench"):
            continue  # a library's private name is that library's business (and its own test's)
        found += [
            (node.lineno, f"{module}.{alias.name}") for alias in node.names if alias.name.startswith("_")
        ]
    return found


def test_no_module_imports_another_modules_private_name():
    """A name with a leading underscore is its module's own: another module that needs it asks for a public one
    (the history's sources read rows through `rosters.history.lookups.as_int`, not `_as_int`)."""
    wrong = [
        f"{_where(path, line)} imports {name}"
        for path in _code_files(*APPS, "config", "bench")
        for line, name in _private_imports(path)
    ]
    assert wrong == []


# What `campaigns`, the lowest app, holds: campaigns, members, invitations and games, what is theirs (the presets'
# terms and fighter profiles, the access rules for members, display names, the campaign's errors and limits), and
# the few pieces every app needs from the lowest layer, each saying so in its docstring (the form field, the
# history's tracking and context, the signals through which a write tells the layers above it).
CAMPAIGNS_HOLDS = {
    *("__init__.py", "apps.py", "admin.py", "models.py", "urls.py", "migrations", "tests"),
    *("services", "selectors.py", "views", "forms.py", "templatetags", "errors.py", "limits.py"),
    *("access.py", "terms.py", "profiles.py", "people.py"),
    *("fields.py", "tracking.py", "history_context.py", "signals.py", "checks.py", "plain_rows.py"),
}
# Infrastructure that lives with its concern, above campaigns: the site's in config/, each cache with its reader.
INFRASTRUCTURE = {
    "config/backups.py": "the whole database is the site's; its commands are config/management/commands/",
    "config/management/commands/backup.py": "`manage.py backup`",
    "config/management/commands/restore.py": "`manage.py restore`",
    "config/throttling.py": "the site's guard of sign-up, password reset and login",
    "config/page_versions.py": "the page cache's tokens, read by config/page_cache.py",
    "combat/access_cache.py": "the tracker poll's remembered readers",
    "rosters/forms/table_import.py": "rosters' price lists and combat's campaign data import tables",
    "rosters/json_input.py": "every JSON file a person hands the tool, read with its depth checked first",
    "combat/rules/words.py": "the possessive every app and the engine write",
}


# JSON the tool did not write itself is read only through rosters/json_input.py (its depth counted before the parse,
# which would otherwise recurse once per level into a RecursionError). These read what the tool wrote.
JSON_READS_OF_OUR_OWN = {
    "rosters/json_input.py": "the guard itself",
    "rosters/history/lookups.py": "the history's own JSON columns, from the database",
    "rosters/selectors/dashboard.py": "the dashboard's lists, built as JSON by its own statement",
    "combat/rules/trauma_table.py": "the Trauma Table files shipped with the code",
    "combat/campaign_export.py": "its own rows after json.dumps, to make them plain JSON values",
    "combat/services/post_game/images.py": "its own values after json.dumps",
    "campaigns/history_context.py": "its own metadata after json.dumps",
}


def test_json_from_outside_is_read_only_through_the_one_guard():
    found = [
        _where(path, node.lineno)
        for path in _code_files(*APPS, "config")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and node.attr in {"load", "loads"}
        and isinstance(node.value, ast.Name)
        and node.value.id == "json"
        and str(path.relative_to(ROOT)) not in JSON_READS_OF_OUR_OWN
    ]
    assert found == [], "read a file from outside with rosters.json_input.load_json"


def test_campaigns_holds_campaigns_and_the_few_pieces_every_app_needs():
    """A module of campaigns/ is on the list above; infrastructure a single concern owns lives with it instead."""
    found = {path.name for path in (ROOT / "campaigns").iterdir() if path.suffix == ".py" or path.is_dir()}
    assert sorted(found - CAMPAIGNS_HOLDS - {"__pycache__"}) == []


@pytest.mark.parametrize("path", sorted(INFRASTRUCTURE))
def test_infrastructure_lives_with_its_concern(path):
    assert (ROOT / path).is_file(), f"{path}: {INFRASTRUCTURE[path]}"


def test_each_shared_piece_of_campaigns_says_why_it_lives_there():
    shared = (
        "fields.py",
        "tracking.py",
        "history_context.py",
        "signals.py",
        "people.py",
        "checks.py",
        "plain_rows.py",
    )
    silent = [
        name
        for name in shared
        if not re.search(
            r"lowest app|may not import",
            ast.get_docstring(ast.parse((ROOT / "campaigns" / name).read_text())) or "",
        )
    ]
    assert silent == []


ISSUE_CITATION = re.compile(r"(^|[^A-Za-z])[Ii]ssues? [0-9]+")


def test_no_code_cites_an_issue_number():
    """A comment cites the rule, the ruling, a doc under docs/ or the reason: an issue number tells a reader the
    project's history, not why the line is so. Migrations keep what they were generated with."""
    suffixes = {".py", ".html", ".js", ".css"}
    tops = (*APPS, "config", "templates", "static", "tests", "bench")
    wrong = [
        f"{path.relative_to(ROOT)}:{number}"
        for top in tops
        for path in sorted((ROOT / top).rglob("*"))
        if path.suffix in suffixes and "migrations" not in path.parts and "vendor" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ISSUE_CITATION.search(line)
    ]
    assert wrong == [], "cite the rule or the reason instead of an issue number: " + ", ".join(wrong)
