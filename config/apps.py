import gc

from django.apps import AppConfig


def freeze_start_up() -> None:
    """Everything loaded to start the site (Django, the apps' modules, models, URLs) lives as long as the process.
    Moved out of the garbage collector's sight, a full collection walks only what requests made: before, it walked
    those ~117,000 objects too and paused one request in a few dozen by 70-110 ms on a loaded machine (a ledger
    page's p95 at 14 times its median, bench/bench_ledger.py). Garbage is collected first, so none is kept."""
    gc.collect()
    gc.freeze()


class ConfigConfig(AppConfig):
    """The site itself, installed as an app for what belongs to no one game system or room: the whole-database
    commands (`manage.py backup`, `manage.py restore`) and the page cache's tokens (config/page_versions.py)."""

    name = "config"
    verbose_name = "Site"

    def ready(self):
        from django.conf import settings
        from django.core.signals import got_request_exception
        from django.db.models.signals import post_save

        from campaigns import signals
        from config import outages, page_versions

        # A lost database or Redis caught by any layer of the middleware chain answers 503 (config/outages.py).
        got_request_exception.connect(outages.note_lost_connection, dispatch_uid="outages.lost_connection")

        # What the apps below say changed: the pages (and the tracker poll's readers) that show it are replaced once
        # it commits; config/page_versions.py decides how far each write reaches.
        signals.campaign_written.connect(
            page_versions.on_campaign_written, dispatch_uid="page_versions.written"
        )
        # A user saved by any path (their account page, a password change or reset, the admin, a login's
        # last_login): the cached pages that show them are replaced.
        post_save.connect(
            page_versions.user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="page_versions.user_saved"
        )
        # The last app ready: every app's modules and models are loaded (config/wsgi.py freezes the URLs too).
        freeze_start_up()
