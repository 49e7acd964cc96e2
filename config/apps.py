from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The site itself, installed as an app for what belongs to no one game system or room: the whole-database
    commands (`manage.py backup`, `manage.py restore`) and the page cache's tokens (config/page_versions.py)."""

    name = "config"
    verbose_name = "Site"
