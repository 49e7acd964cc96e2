"""Before-images: each row the Apply changes, kept as plain JSON, and how the Revert puts it back."""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

# The fighter fields the Apply may change (and the Revert puts back).
APPLY_FIELDS = ("status", "battle_scars", "can_gain_xp", "misses_next_game", "xp")
# Counters that other writes may have moved since the Apply: the Revert takes back the Apply's own change.
COUNTERS = {"fighter": ("xp",), "warband": ("strongbox",)}


class _ExactEncoder(DjangoJSONEncoder):
    """DjangoJSONEncoder, but times keep their microseconds (it rounds them to milliseconds), so a row the
    Revert recreates is equal to the one the Apply deleted, `created_at` included."""

    def default(self, o):
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def image(obj) -> dict[str, Any]:
    """A row as plain JSON values, every concrete field: what the Revert writes back."""
    values = {field.attname: field.value_from_object(obj) for field in obj._meta.concrete_fields}
    return json.loads(json.dumps(values, cls=_ExactEncoder))


def from_image(model, values: Mapping[str, Any]) -> dict[str, Any]:
    """The field values of a before-image, as Python values of `model`'s fields."""
    return {
        field.attname: field.to_python(values[field.attname])
        for field in model._meta.concrete_fields
        if field.attname in values
    }


def restore(model, kind: str, current, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Put back on `current` every field the Apply changed; a counter changed since then by another write (XP,
    the Strongbox) loses only what the Apply added, so the later change is kept."""
    values_before = from_image(model, before)
    values_after = from_image(model, after)
    fields = []
    for name, value in values_before.items():
        if value == values_after[name]:
            continue
        now = getattr(current, name)
        if name in COUNTERS[kind] and now != values_after[name]:
            value = now - (values_after[name] - value)
        setattr(current, name, value)
        fields.append(name)
    return fields
