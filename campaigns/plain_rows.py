"""A model's rows read by a plain statement written once per process, made into the instances the ORM would make.

For the reads every request of a page makes (an access check, a roster's or card's first read, the board, a
post-game's base rows): building the ORM's statement cost more than PostgreSQL running it. It lives in campaigns,
the lowest app, because every app's statements use it and campaigns may not import the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from django.db import connection


@dataclass(frozen=True)
class Part:
    """One model of a plainly read row: its class, its alias in the statement and, when not every concrete field is
    read, the attnames read (`only`; the primary key is always read, first, in the model's field order)."""

    model: type
    alias: str
    only: tuple[str, ...] | None = None

    @cached_property
    def fields(self) -> tuple:
        fields = self.model._meta.concrete_fields
        if not fields[0].primary_key:
            # `load` tells a left join that found no row by its first value, the key.
            raise TypeError(f"{self.model.__name__}: its primary key is not its first field")
        if self.only is None:
            return tuple(fields)
        wanted = {*self.only, fields[0].attname}
        return tuple(field for field in fields if field.attname in wanted)

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(field.attname for field in self.fields)

    @cached_property
    def columns(self) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    @cached_property
    def table(self) -> str:
        return f"{connection.ops.quote_name(self.model._meta.db_table)} {self.alias}"

    @cached_property
    def converters(self) -> list[tuple[int, object, list]]:
        """Each value's converters, as the ORM's own query applies them (a JSON field's text, a backend's own)."""
        found = []
        for index, field in enumerate(self.fields):
            column = field.get_col(self.alias)
            converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if converters:
                found.append((index, column, converters))
        return found

    def load(self, values) -> object | None:
        """The instance these values make, None for a left join that found no row (its key is None)."""
        if values[0] is None:
            return None
        if self.converters:
            values = list(values)
            for index, column, converters in self.converters:
                for converter in converters:
                    values[index] = converter(values[index], column, connection)
        return self.model.from_db(connection.alias, self.names, values)


@cache
def part(model, alias: str) -> Part:
    """The `Part` of every field of `model` under `alias`, made once per process."""
    return Part(model, alias)


def slices(parts: Iterable[Part]) -> list[slice]:
    """Where each part's values lie in a row that reads `parts` one after the other, and last what follows them."""
    found, start = [], 0
    for each in parts:
        found.append(slice(start, start + len(each.names)))
        start += len(each.names)
    return [*found, slice(start, None)]


@dataclass(frozen=True)
class Statement:
    """One statement written once per process, and the parts of each row it reads, in their order."""

    sql: str
    parts: tuple[Part, ...]

    def rows(self, params: list, tail: str = "") -> list[tuple]:
        with connection.cursor() as cursor:
            cursor.execute(self.sql + tail, params)
            return cursor.fetchall()
