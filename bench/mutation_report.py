"""The kill rate of `make mutate` per module of combat/rules/, logic and message mutants apart.

Run from the repository root after `mutmut run`: it reads mutmut's results in `mutants/` and prints, for each
module, how many of its logic mutants and its message mutants the rules tests killed, then every surviving
mutant with the line it changes. A *message* mutant changes nothing but string literals that are prose (an
explanation sentence or an error message: text with a space in it); any other mutant is a *logic* mutant, a
changed code such as `"injury"` included. A survivor whose change is listed as equivalent in the "Mutation
testing" section of docs/rules.md (a row naming the function, the line before and the line after) is marked
so: it cannot change behaviour. `--strict` exits 1 while a logic survivor is not listed as equivalent.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import sys
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.diff_apply import (
    read_functions_from_index,
    read_mutant_function,
    read_mutants_module,
    read_original_function,
)
from mutmut.stats import status_by_exit_code
from mutmut.utils.file_utils import walk_mutatable_files

DOCS = Path("docs/rules.md")
KILLED = {"killed", "timeout", "caught by type check"}
# At least 98% of the logic mutants of every module killed.
TARGET = 0.98
# A docs/rules.md row of the "Mutation testing" section: | `function` | `line before` | `line after` | why |
EQUIVALENT_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]*)`\s*\|\s*`([^`]*)`\s*\|", re.MULTILINE)


@dataclass(frozen=True)
class Mutant:
    name: str
    module: str
    function: str
    status: str
    kind: str  # "logic" or "message"
    before: str
    after: str

    @property
    def killed(self) -> bool:
        return self.status in KILLED


def function_sources(name: str, path: Path) -> tuple[str, str]:
    """The original function and its mutant, both as source (mutmut's own reading of its files)."""
    functions = read_functions_from_index(name, path)
    if functions is None:
        module = read_mutants_module(path)
        functions = (read_original_function(module, name), read_mutant_function(module, name))
    original, mutant = (cst.Module([function]).code for function in functions)
    return textwrap.dedent(original), textwrap.dedent(mutant)


def _is_message(node: object) -> bool:
    """Prose: an f-string, or a string literal with a space in it (a sentence, an error message)."""
    if isinstance(node, ast.JoinedStr):
        return True
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(re.search(r"\s", node.value))
    )


def _differences(before: object, after: object) -> set[str]:
    """How two syntax trees differ: "message" where prose changed (or became None), "logic" anywhere else."""
    if _is_message(before):
        if isinstance(after, ast.AST) and ast.dump(before) == ast.dump(after):
            return set()
        is_none = isinstance(after, ast.Constant) and after.value is None
        return {"message"} if _is_message(after) or is_none else {"logic"}
    if isinstance(before, list) and isinstance(after, list):
        if len(before) != len(after):
            return {"logic"}
        return set().union(*(_differences(old, new) for old, new in zip(before, after, strict=True)))
    if isinstance(before, ast.AST) and isinstance(after, ast.AST):
        if type(before) is not type(after):
            return {"logic"}
        return set().union(
            *(
                _differences(getattr(before, name, None), getattr(after, name, None))
                for name in before._fields
            )
        )
    return set() if before == after else {"logic"}


def kind_of(original: str, mutant: str) -> str:
    """ "message" when the mutant changes nothing but prose (see the module docstring), else "logic"."""
    differences = _differences(ast.parse(original), ast.parse(mutant))
    return "message" if differences == {"message"} else "logic"


def changed_lines(original: str, mutant: str) -> tuple[str, str]:
    """The lines the mutant changes, before and after, stripped and joined ("(nothing)" for none)."""
    removed, added = [], []
    for line in difflib.ndiff(original.splitlines(), mutant.splitlines()):
        if line.startswith("- "):
            removed.append(line[2:].strip())
        elif line.startswith("+ "):
            added.append(line[2:].strip())
    return " ".join(removed) or "(nothing)", " ".join(added) or "(nothing)"


def _function_name(mutant: str) -> str:
    """`allocate_damage` or `RandomDice.roll`, from mutmut's `...x_allocate_damage__mutmut_3` or
    `...xǁRandomDiceǁroll__mutmut_8`."""
    mangled = mutant.rpartition(".")[2].partition("__mutmut_")[0]
    if mangled.startswith("xǁ"):
        return mangled.removeprefix("xǁ").replace("ǁ", ".")
    return mangled.removeprefix("x_")


def collect() -> list[Mutant]:
    mutants = []
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        for name, exit_code in data.exit_code_by_key.items():
            original, mutant = function_sources(name, path)
            before, after = changed_lines(original, mutant)
            function = _function_name(name)
            mutants.append(
                Mutant(
                    name=name,
                    module=path.stem,
                    function=function,
                    status=status_by_exit_code[exit_code],
                    kind=kind_of(original, mutant),
                    before=before,
                    after=after,
                )
            )
    return mutants


def equivalents(docs: Path = DOCS) -> set[tuple[str, str, str]]:
    """(function, line before, line after) of every mutant docs/rules.md lists as equivalent."""
    text = docs.read_text(encoding="utf-8") if docs.exists() else ""
    section = text.partition("## Mutation testing")[2]
    return {(function, before, after) for function, before, after in EQUIVALENT_ROW.findall(section)}


def _rate(mutants: list[Mutant]) -> str:
    if not mutants:
        return "      -"
    killed = sum(mutant.killed for mutant in mutants)
    return f"{100 * killed / len(mutants):5.1f}% ({killed}/{len(mutants)})"


def _table(mutants: list[Mutant], equivalent: set[str]) -> list[str]:
    """Modules whose logic mutants, equivalent ones left out, are less than `TARGET` killed, after printing the
    table of kill rates (the `logic` column counts every logic mutant; `logic, not equivalent` leaves out those
    docs/rules.md lists as equivalent)."""
    by_module: dict[str, list[Mutant]] = defaultdict(list)
    for mutant in mutants:
        by_module[mutant.module].append(mutant)
    print(f"{'module':<14} {'all':>20} {'logic':>20} {'message':>20} {'logic, not equivalent':>24}")
    short = []
    for module in sorted(by_module) + ["(all)"]:
        group = mutants if module == "(all)" else by_module[module]
        logic = [mutant for mutant in group if mutant.kind == "logic"]
        message = [mutant for mutant in group if mutant.kind == "message"]
        real = [mutant for mutant in logic if mutant.name not in equivalent]
        print(f"{module:<14} {_rate(group):>20} {_rate(logic):>20} {_rate(message):>20} {_rate(real):>24}")
        # The target counts the mutants that can change behaviour: an equivalent one can never be killed.
        if module != "(all)" and real and sum(mutant.killed for mutant in real) < TARGET * len(real):
            short.append(module)
    return short


def report(mutants: list[Mutant], listed: set[tuple[str, str, str]]) -> int:
    """Prints the figures and the survivors; returns how many logic survivors are not listed as equivalent."""
    survivors = [mutant for mutant in mutants if not mutant.killed]
    equivalent = {
        mutant.name for mutant in survivors if (mutant.function, mutant.before, mutant.after) in listed
    }
    short = _table(mutants, equivalent)
    if short:
        print(f"\nUnder {TARGET:.0%} of logic mutants killed: {', '.join(short)}")
    print(f"\n{len(survivors)} surviving mutants:")
    for mutant in survivors:
        label = f"{mutant.kind}, equivalent" if mutant.name in equivalent else mutant.kind
        print(f"  {mutant.name} [{label}; {mutant.status}] in {mutant.function}")
        print(f"      - {mutant.before}\n      + {mutant.after}")
    return sum(mutant.kind == "logic" and mutant.name not in equivalent for mutant in survivors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 while a logic survivor is unexplained")
    arguments = parser.parse_args()
    if not Path("mutants").is_dir():
        print("No mutants/ here: run `make mutate` (or `mutmut run`) from the repository root first.")
        return 1
    unexplained = report(collect(), equivalents())
    if unexplained:
        print(f"\n{unexplained} logic survivors are neither killed nor listed as equivalent in {DOCS}.")
    return 1 if arguments.strict and unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
