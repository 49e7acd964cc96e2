"""Check constraints decided in Python before a save (the lowest app, so every app's models can use it).

`full_clean()` asks the database about each CheckConstraint: Django's `Q.check` runs one `SELECT` per constraint,
inside its own savepoint when a transaction is open (every service's is), so three statements a constraint. A
fighter has eighteen: raising a fighter's XP by one cost 54 statements before its one `UPDATE`. Every condition
our models state is a tree of plain lookups on the row's own fields (`xp__gte=0`, `status__in=[...]`,
`holder__isnull=True`, `~Q(first_chart=F("second_chart"))`), which Python decides from the values the row already
holds, with the database's own three-valued logic: a comparison with NULL is unknown, and a CHECK passes unless its
condition is false (Django's `Coalesce(condition, True)` says the same).

A condition this module cannot read (a transform, a function, a lookup not listed here) is asked of the database
as Django does, so nothing is ever decided wrongly here; the database's constraints stay the last word on every
write, whichever path it takes.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import router
from django.db.models import CheckConstraint, F, Q
from django.db.models.constants import LOOKUP_SEP


class Undecided(Exception):
    """The condition holds something Python does not read the way the database does: ask the database."""


def _compare(compare: Callable[[object, object], bool]):
    def lookup(value, wanted):
        if value is None or wanted is None:
            return None
        if isinstance(value, str) or isinstance(wanted, str):
            raise Undecided("text is ordered by the database's collation")
        try:
            return compare(value, wanted)
        except TypeError as error:
            raise Undecided(str(error)) from error

    return lookup


def _exact(value, wanted):
    if wanted is None:  # Django reads `field=None` as `field__isnull=True`
        return value is None
    if value is None:
        return None
    return value == wanted


def _in(value, wanted):
    wanted = [item for item in wanted if item is not None]  # as Django drops None from an IN list
    if value is None:
        return None
    return value in wanted


LOOKUPS: dict[str, Callable[[object, object], bool | None]] = {
    "exact": _exact,
    "gt": _compare(operator.gt),
    "gte": _compare(operator.ge),
    "lt": _compare(operator.lt),
    "lte": _compare(operator.le),
    "in": _in,
    "isnull": lambda value, wanted: (value is None) == bool(wanted),
}


def _field(model, name: str):
    """The concrete field `name` names (its name or its column's attribute name), or Undecided."""
    if name == "pk":
        return model._meta.pk
    for field in model._meta.concrete_fields:
        if name in (field.name, field.attname):
            return field
    raise Undecided(f"{name} is not a field of {model.__name__}")


def _lookup(instance, key: str, wanted) -> bool | None:
    name, _, lookup = key.partition(LOOKUP_SEP)
    lookup = lookup or "exact"
    if lookup not in LOOKUPS:
        raise Undecided(f"the lookup {lookup!r}")
    value = getattr(instance, _field(type(instance), name).attname)
    if isinstance(wanted, F):
        wanted = getattr(instance, _field(type(instance), wanted.name).attname)
    elif hasattr(wanted, "resolve_expression"):
        raise Undecided(f"the expression {wanted!r}")
    return LOOKUPS[lookup](value, wanted)


def _and(answers: list[bool | None]) -> bool | None:
    if False in answers:
        return False
    return None if None in answers else True


def _or(answers: list[bool | None]) -> bool | None:
    if True in answers:
        return True
    return None if None in answers else False


def holds(condition: Q, instance) -> bool | None:
    """True, False, or None (unknown, as SQL's NULL) for `condition` on the row's values; Undecided when Python
    cannot say what the database would."""
    answers = []
    for child in condition.children:
        if isinstance(child, Q):
            answers.append(holds(child, instance))
        elif isinstance(child, tuple) and len(child) == 2:
            answers.append(_lookup(instance, *child))
        else:
            raise Undecided(f"the expression {child!r}")
    if condition.connector == Q.AND:
        answer = _and(answers)
    elif condition.connector == Q.OR:
        answer = _or(answers)
    else:
        raise Undecided(f"the connector {condition.connector}")
    if condition.negated and answer is not None:
        return not answer
    return answer


def _references(condition: Q) -> set[str]:
    names = set()
    for child in condition.children:
        if isinstance(child, Q):
            names |= _references(child)
        elif isinstance(child, tuple) and len(child) == 2:
            names.add(child[0].split(LOOKUP_SEP)[0])
            if isinstance(child[1], F):
                names.add(child[1].name)
    return names


def check_in_python(constraint: CheckConstraint, model, instance, exclude, using) -> None:
    """What `constraint.validate` does, without the query when Python can decide."""
    condition = constraint.condition if isinstance(constraint.condition, Q) else None
    if condition is None:
        constraint.validate(model, instance, exclude=exclude, using=using)
        return
    names = _references(condition)
    excluded = {
        name for name in names if name != "pk" and (name in exclude or _field_name(model, name) in exclude)
    }
    if excluded:
        return  # as Django does: a constraint on a field left out is not checked here
    try:
        answer = holds(condition, instance)
    except Undecided:
        constraint.validate(model, instance, exclude=exclude, using=using)
        return
    if answer is False:
        raise ValidationError(constraint.get_violation_error_message(), code=constraint.violation_error_code)


def _field_name(model, name: str) -> str:
    try:
        return _field(model, name).name
    except Undecided:
        return name


def loaded_relations(instance) -> set[str]:
    """The foreign keys whose row the instance holds already, read from the database: the row exists (it was just
    read), so Django's `ForeignKey.validate`, one `SELECT 1` each, would only say so again. The database's foreign
    key still refuses a row deleted since, as it refuses every other path."""
    return {
        field.name
        for field in instance._meta.concrete_fields
        if field.is_relation
        and field.many_to_one
        and field.is_cached(instance)
        and (related := field.get_cached_value(instance)) is not None
        and not related._state.adding
        and getattr(instance, field.attname) == getattr(related, field.target_field.attname)
    }


class ChecksInPython:
    """A model whose `full_clean()` decides its CheckConstraints in Python (the module's docstring says why), and
    does not ask again whether a related row it holds exists; every other constraint (a UniqueConstraint reads the
    table) is validated as Django does."""

    def clean_fields(self, exclude=None):
        super().clean_fields(exclude={*(exclude or ()), *loaded_relations(self)})

    def validate_constraints(self, exclude=None):
        exclude = set(exclude or ())
        using = router.db_for_write(self.__class__, instance=self)
        errors = {}
        for model_class, model_constraints in self.get_constraints():
            for constraint in model_constraints:
                try:
                    if isinstance(constraint, CheckConstraint):
                        check_in_python(constraint, model_class, self, exclude, using)
                    else:
                        constraint.validate(model_class, self, exclude=exclude, using=using)
                except ValidationError as error:
                    # Django's own grouping: a unique field's error beside that field, the rest for the row.
                    if getattr(error, "code", None) == "unique" and len(constraint.fields) == 1:
                        errors.setdefault(constraint.fields[0], []).append(error)
                    else:
                        errors = error.update_error_dict(errors)
        if errors:
            raise ValidationError(errors)
