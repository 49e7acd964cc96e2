"""The Apply's writes of many rows, each one statement: the rows it creates, written together at its end (one
INSERT per table, all in one statement), and the rows it changes the same way (`update_rows`).

Each part of the Apply asks for its new rows (the Injuries, the skills, the Location found, the fighters and the
Battlekit bought, the ledger's entries) as `NewRows(Model, rows)`, which it keeps in its snapshot entry where
the Revert reads the ids; `write_new_rows` then inserts every table's rows in one statement (each table's INSERT
a part of one `WITH`, as `bulk_create` would write it alone) and fills each list with its rows' ids, in the order
asked. Nothing else of the Apply reads a row it creates, so writing them last changes no decision, and each
table's history events keep their order (every other change of those tables comes before its inserts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, connections, router
from django.db.models import Model
from django.db.models.sql import InsertQuery


class NewRows(list):
    """The rows of one model that one part creates: an empty list until `write_new_rows` writes them, then their
    ids in order (the snapshot's `injuries_created`, `skills_created`... as the Revert reads them). `single`: the
    snapshot keeps the one row's id, or None (`settle`). `refused` turns the database's refusal of these rows (by
    the constraint's name) into the part's own error."""

    def __init__(
        self,
        model: type[Model],
        rows: Sequence[Model],
        *,
        single: bool = False,
        refused: Mapping[str, Exception] | None = None,
    ):
        super().__init__()
        self.model = model
        self.rows = list(rows)
        self.single = single
        self.refused = dict(refused or {})


def _places(snapshot: dict[str, Any]) -> list[tuple[dict, str, NewRows]]:
    """Where the parts keep their new rows: a snapshot entry of its own, or one value of a part's entry
    (`{"trade_part": {"items_created": ...}}`), in the parts' order."""
    places = []
    for key, value in snapshot.items():
        entries = value.items() if isinstance(value, dict) else ((key, value),)
        holder = value if isinstance(value, dict) else snapshot
        places.extend((holder, name, item) for name, item in entries if isinstance(item, NewRows))
    return places


def new_rows_in(snapshot: dict[str, Any]) -> list[NewRows]:
    """The new rows the Apply's parts asked for, in the parts' order."""
    return [rows for _holder, _name, rows in _places(snapshot)]


def settle(snapshot: dict[str, Any]) -> None:
    """Once written, a single row's entry holds its id (or None), as the Revert reads it."""
    for holder, name, rows in _places(snapshot):
        if rows.single:
            holder[name] = rows[0] if rows else None


def _insert_sql(model: type[Model], rows: list[Model], using: str) -> tuple[str, tuple]:
    """One table's INSERT ... RETURNING its ids, as `bulk_create` builds it for rows without a primary key."""
    opts = model._meta
    model.objects.all()._prepare_for_bulk_create(rows)  # noqa: SLF001 - bulk_create's own preparation
    fields = [field for field in opts.concrete_fields if not field.generated and field is not opts.pk]
    query = InsertQuery(model)
    query.insert_values(fields, rows)
    compiler = query.get_compiler(using=using)
    compiler.returning_fields = [opts.pk]
    ((sql, params),) = compiler.as_sql()
    return sql, params


def write_new_rows(asked: Sequence[NewRows]) -> None:
    """Every part's new rows in one statement, one INSERT per table (its rows in the order the parts asked, as
    one `bulk_create` would number them); each `NewRows` then holds its rows' ids, and each row its id."""
    tables: dict[type[Model], list[NewRows]] = {}
    for part in asked:
        if part.rows:
            tables.setdefault(part.model, []).append(part)
    if not tables:
        return
    using = router.db_for_write(next(iter(tables)))
    connection = connections[using]
    quote = connection.ops.quote_name
    statements, picks, params = [], [], []
    for index, (model, parts) in enumerate(tables.items()):
        sql, values = _insert_sql(model, [row for part in parts for row in part.rows], using)
        statements.append(f"new_{index} AS ({sql})")
        # Django's own INSERTs and a quoted column name of the model's metadata; every value is a parameter.
        picks.append(f"SELECT {index}, {quote(model._meta.pk.column)} FROM new_{index}")  # noqa: S608
        params.extend(values)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"WITH {', '.join(statements)} {' UNION ALL '.join(picks)}", params)
            returned = cursor.fetchall()
    except IntegrityError as error:
        constraint = getattr(getattr(error.__cause__, "diag", None), "constraint_name", None)
        refusal = next((p.refused[constraint] for p in asked if constraint in p.refused), None)
        if refusal is not None:
            raise refusal from error
        raise
    ids: dict[int, list[int]] = {index: [] for index in range(len(tables))}
    for index, pk in returned:
        ids[index].append(pk)
    for index, parts in enumerate(tables.values()):
        numbered = iter(ids[index])
        for part in parts:
            for row in part.rows:
                row.pk = next(numbered)
                row._state.adding, row._state.db = False, using  # noqa: SLF001 - as bulk_create leaves its rows
            part.extend(row.pk for row in part.rows)


# The columns `update_rows` sends as one typed array each: plain values only (an array or JSON column would need an
# array of arrays or a cast of its own).
_PLAIN = {"CharField", "TextField", "BooleanField", "IntegerField", "SmallIntegerField", "BigIntegerField"}


def update_rows(model: type[Model], rows: Sequence[Model], fields: Sequence[str]) -> None:
    """`fields` of each row written in one statement, as `bulk_update` would, without its CASE per row and column
    (which Django builds and compiles as one expression per value): each column's new values are one array
    parameter, joined to the rows on their primary key. The rows in the order of their keys."""
    if not rows or not fields:
        return
    using = router.db_for_write(model)
    connection = connections[using]
    quote = connection.ops.quote_name
    opts = model._meta
    columns = [opts.pk, *(opts.get_field(name) for name in fields)]
    for field in columns[1:]:
        if field.get_internal_type().removeprefix("Positive") not in _PLAIN:
            raise ValueError(f"update_rows writes plain columns only, not {field.name}.")
    rows = sorted(rows, key=lambda row: row.pk)
    arrays = [
        [field.get_db_prep_save(getattr(row, field.attname), connection) for row in rows] for field in columns
    ]
    unnest = ", ".join(
        f"%s::{field.rel_db_type(connection) if field is opts.pk else field.db_type(connection)}[]"
        for field in columns
    )
    names = ", ".join(quote(field.column) for field in columns)
    assign = ", ".join(f"{quote(field.column)} = new.{quote(field.column)}" for field in columns[1:])
    table, pk = quote(opts.db_table), quote(opts.pk.column)
    # Names from the model's metadata only; every value is a parameter.
    sql = (
        f"UPDATE {table} SET {assign} FROM UNNEST({unnest}) AS new({names}) "  # noqa: S608
        f"WHERE {table}.{pk} = new.{pk}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, arrays)
