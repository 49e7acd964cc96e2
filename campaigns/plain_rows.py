"""A model's rows read by a plain statement written once per process, made into the instances the ORM would make.

For the reads every request of a page makes (an access check, a board, a post-game's base rows): building the ORM's
statement cost more than PostgreSQL running it. It lives in campaigns, the lowest app, because every app's
statements use it and campaigns may not import the others.
"""

from functools import cache

from django.db import connection


class Columns:
    """One model's columns in a plain statement, under a table alias (`sql`), with its quoted table name (`table`),
    and the instance the ORM would make from their values in a row (`make`: each value through the converters the
    ORM's own query would apply: a JSON field's text, a backend's own)."""

    def __init__(self, model, alias: str):
        fields = model._meta.concrete_fields
        quote = connection.ops.quote_name
        self.model = model
        self.table = quote(model._meta.db_table)
        self.sql = ", ".join(f"{alias}.{quote(field.column)}" for field in fields)
        self.width = len(fields)
        self._names = [field.attname for field in fields]
        self._converters = []
        for index, field in enumerate(fields):
            column = field.get_col(alias)
            converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if converters:
                self._converters.append((index, column, converters))

    def make(self, values) -> object:
        values = list(values)
        for index, column, converters in self._converters:
            for converter in converters:
                values[index] = converter(values[index], column, connection)
        return self.model.from_db(connection.alias, self._names, values)


@cache
def columns(model, alias: str) -> Columns:
    """`Columns` of `model` under `alias`, made once per process."""
    return Columns(model, alias)
