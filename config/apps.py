from django.apps import AppConfig


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
