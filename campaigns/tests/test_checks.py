"""Check constraints decided in Python (campaigns/checks.py): the same answer as the database, without its queries."""

import itertools
import random

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import CheckConstraint, F, Q

from campaigns.checks import ChecksInPython, Undecided, holds
from rosters.models import Fighter

pytestmark = pytest.mark.django_db

# The one condition of ours Python leaves to the database: PostgreSQL's regular expressions are not Python's.
ASKED_OF_THE_DATABASE = {"campaign_data_kind_known"}


def project_checks():
    for model in apps.get_models():
        if model._meta.app_label not in {"campaigns", "rosters", "combat"}:
            continue
        for constraint in model._meta.constraints:
            if isinstance(constraint, CheckConstraint):
                yield model, constraint


CHECKS = sorted(project_checks(), key=lambda pair: pair[1].name)


def _leaves(condition: Q):
    for child in condition.children:
        if isinstance(child, Q):
            yield from _leaves(child)
        else:
            yield child


def _field(model, name):
    return next(f for f in model._meta.concrete_fields if name in (f.name, f.attname))


def _stated(key: str, wanted) -> set:
    """Values on both sides of what a lookup states."""
    if isinstance(wanted, list) and not key.endswith("__in"):
        return {"[]", "[1, 2]"}  # a list the column holds, made a list again in rows()
    found = set()
    for item in wanted if key.endswith("__in") else [wanted]:
        if isinstance(item, bool):
            found |= {True, False}
        elif isinstance(item, int):
            found |= {item - 1, item, item + 1}
        elif isinstance(item, str):
            found |= {item, "", "something else"}
    return found


def _of_its_kind(field) -> set:
    if field.is_relation:
        return {1}
    if isinstance(field, models.BooleanField):
        return {True, False}
    if isinstance(field, models.CharField | models.TextField):
        return {"", "common", "something else"}
    if isinstance(field, models.IntegerField):
        return {0, 1}
    return set()


def candidates(model, condition: Q) -> dict[str, list]:
    """For each field the condition reads, values on both sides of what it states (and NULL where allowed)."""
    values: dict[str, set] = {}
    for key, wanted in _leaves(condition):
        field = _field(model, key.split("__")[0])
        found = values.setdefault(field.attname, set())
        if field.null:
            found.add(None)
        if isinstance(wanted, F):
            values.setdefault(_field(model, wanted.name).attname, set())
        else:
            found |= _stated(key, wanted)
    for attname, found in values.items():
        found |= _of_its_kind(_field(model, attname))
    return {name: sorted(found, key=repr) for name, found in values.items()}


def rows(model, condition, *, limit=60):
    """Rows with every combination of those values (a seeded sample when there are many)."""
    options = candidates(model, condition)
    names = list(options)
    combinations = list(itertools.product(*(options[name] for name in names)))
    random.Random(0).shuffle(combinations)
    for combination in combinations[:limit]:
        row = model()
        for name, value in zip(names, combination, strict=True):
            if value in ("[]", "[1, 2]"):
                value = [] if value == "[]" else [1, 2]
            setattr(row, name, value)
        yield row


def database_says(constraint, model, row) -> bool:
    against = row._get_field_expression_map(meta=model._meta)
    return Q(constraint.condition).check(against)


@pytest.mark.parametrize(("model", "constraint"), CHECKS, ids=[check.name for _, check in CHECKS])
def test_python_and_the_database_agree_on_every_check_of_ours(model, constraint):
    if constraint.name in ASKED_OF_THE_DATABASE:
        with pytest.raises(Undecided):
            holds(constraint.condition, model())
        return
    compared = 0
    for row in rows(model, constraint.condition):
        answer = holds(constraint.condition, row)
        # A CHECK passes unless its condition is false: unknown (NULL) passes.
        assert (answer is not False) == database_says(constraint, model, row), (constraint.name, vars(row))
        compared += 1
    assert compared > 0


def test_every_model_of_ours_with_a_check_decides_it_in_python():
    assert sorted({model.__name__ for model, _ in CHECKS if not issubclass(model, ChecksInPython)}) == []


def test_a_fighter_is_validated_without_a_query_per_constraint(warband, django_assert_num_queries):
    fighter = Fighter(warband=warband, name="Brother Anselm", xp=3)
    # The warband is held, so not read again; the fighter's CheckConstraints are decided in Python.
    with django_assert_num_queries(0):
        fighter.full_clean(validate_unique=False)


def test_a_broken_check_is_refused_with_its_message_and_nothing_asked(warband, django_assert_num_queries):
    fighter = Fighter(warband=warband, name="Brother Anselm", xp=3, battle_scars=99)
    # The field's own validator speaks first in full_clean(); the constraint is what any other path meets.
    with django_assert_num_queries(0), pytest.raises(ValidationError) as refused:
        fighter.validate_constraints()
    assert refused.value.messages == ["Constraint “fighter_battle_scars_range” is violated."]


def test_a_related_row_not_held_is_still_looked_for(warband, django_assert_num_queries):
    fighter = Fighter(warband_id=warband.pk + 1000, name="Nobody's")
    with django_assert_num_queries(1), pytest.raises(ValidationError) as refused:
        fighter.full_clean(validate_unique=False)
    assert "warband" in refused.value.message_dict


@pytest.mark.parametrize(
    ("condition", "values", "answer"),
    [
        (Q(xp__gte=1), {"xp": None}, None),
        (Q(xp__isnull=True) | Q(xp__gte=1), {"xp": None}, True),
        (~Q(xp__gte=1), {"xp": None}, None),
        (Q(xp__gte=1) & Q(xp__lte=3), {"xp": 0}, False),
        (Q(xp__gte=1) | Q(xp__lte=3), {"xp": None}, None),
        (Q(name__in=["a", None]), {"name": "a"}, True),
        (~Q(xp=F("battle_scars")), {"xp": 2, "battle_scars": 2}, False),
    ],
)
def test_null_is_unknown_as_in_sql(condition, values, answer):
    assert holds(condition, Fighter(**values)) is answer


@pytest.mark.parametrize(
    "condition",
    [Q(name__iexact="a"), Q(name__lower="a"), Q(xp__gte=F("xp") + 1), Q(name__gte="a"), Q(xp=1) ^ Q(xp=2)],
)
def test_what_python_cannot_read_is_left_to_the_database(condition):
    with pytest.raises(Undecided):
        holds(condition, Fighter(name="a", xp=1))
