"""The one place that says how roster and campaign state is tracked by django-pghistory (the lowest app, so every
app's models can import it; config sits on top and is imported by none).

Every model that holds campaign state is decorated with `@track_history`, so inserts, updates (when a value
changes) and deletes each leave an event row, tied by pghistory's context to the user, the reason and the game.
`@track_history(ignore=[...])` leaves out updates that change only bookkeeping fields nobody reads as a change.
"""

import pghistory


def track_history(model=None, *, ignore: tuple[str, ...] = ()):
    def decorate(model):
        # Fresh tracker objects per model: pghistory binds each tracker to the model it decorates.
        update = (
            pghistory.UpdateEvent(condition=pghistory.AnyChange(exclude=list(ignore)))
            if ignore
            else pghistory.UpdateEvent()
        )
        return pghistory.track(pghistory.InsertEvent(), update, pghistory.DeleteEvent())(model)

    return decorate(model) if model is not None else decorate
