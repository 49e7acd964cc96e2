"""The one place that says how roster and campaign state is tracked by django-pghistory.

Every model that holds campaign state is decorated with `@track_history`, so inserts, updates (when a value
changes) and deletes each leave an event row, tied by pghistory's context to the user, the reason and the game.
"""

import pghistory


def track_history(model):
    # Fresh tracker objects per model: pghistory binds each tracker to the model it decorates.
    return pghistory.track(
        pghistory.InsertEvent(),
        pghistory.UpdateEvent(),
        pghistory.DeleteEvent(),
    )(model)
