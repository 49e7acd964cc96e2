from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "Campaigns"

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import post_save

        from campaigns import page_versions

        # A user saved by any path (their account page, a password change or reset, the admin, a login's
        # last_login): the cached pages that show them are replaced (issue 15).
        post_save.connect(
            page_versions.user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="page_versions.user_saved"
        )
