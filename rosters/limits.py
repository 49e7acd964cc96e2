"""The limits a model field carries, read back from the field itself for the forms and the import schema.

The numbers are written once, on the models (rosters/models/: validators, `max_length`, ArrayField `size`,
from the tables of rosters/models/limits.py); everything that checks a value before it reaches the model asks
these functions, so nothing restates them.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models


def field_of(model: type[models.Model], name: str) -> models.Field:
    return model._meta.get_field(name)


def bounds(model: type[models.Model], name: str) -> tuple[int, int]:
    """The lowest and highest whole number the field accepts (its own validators and its column's range)."""
    validators = field_of(model, name).validators
    low = max(v.limit_value for v in validators if isinstance(v, MinValueValidator))
    high = min(v.limit_value for v in validators if isinstance(v, MaxValueValidator))
    return low, high


def max_length(model: type[models.Model], name: str) -> int:
    return field_of(model, name).max_length


def keyword_limits(model: type[models.Model], name: str = "keywords") -> tuple[int, int]:
    """(longest keyword, most keywords) of an ArrayField of keywords."""
    field = field_of(model, name)
    return field.base_field.max_length, field.size
