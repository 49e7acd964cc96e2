"""Reading django-pghistory events in tests: what a service left behind, and why."""

from django.db import models


def events_of(obj: models.Model, label: str | None = None) -> list:
    """The history events of one row, oldest first, with their context loaded."""
    events = type(obj).pgh_event_model.objects.filter(pgh_obj_id=obj.pk).select_related("pgh_context")
    if label:
        events = events.filter(pgh_label=label)
    return list(events.order_by("pgh_id"))


def last_context(obj: models.Model, label: str | None = None) -> dict:
    """The context (action, reason, user, game...) of the newest event of a row."""
    events = events_of(obj, label)
    assert events, f"no {label or ''} history event for {obj!r}"
    context = events[-1].pgh_context
    assert context is not None, f"the last event of {obj!r} has no context"
    return context.metadata


def deleted_context(model: type[models.Model], pk: int) -> dict:
    event = (
        model.pgh_event_model.objects.filter(pgh_obj_id=pk, pgh_label="delete")
        .select_related("pgh_context")
        .get()
    )
    return event.pgh_context.metadata
