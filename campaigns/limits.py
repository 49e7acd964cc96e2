"""Read a model field's limits, so a form can take them from the model instead of repeating the numbers.

The models hold every limit (docs/architecture.md: one limit, one place): `max_length`, and the bounds of
`MinValueValidator` / `MaxValueValidator`. `value_bounds(Campaign, "scar_limit")` returns (1, 10).
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models


def value_bounds(model: type[models.Model], field_name: str) -> tuple[int | None, int | None]:
    """(lowest, highest) a field's validators allow; None where it sets no bound."""
    field = model._meta.get_field(field_name)
    lowest = highest = None
    for validator in field.validators:
        if isinstance(validator, MinValueValidator):
            lowest = validator.limit_value if lowest is None else max(lowest, validator.limit_value)
        elif isinstance(validator, MaxValueValidator):
            highest = validator.limit_value if highest is None else min(highest, validator.limit_value)
    return lowest, highest
