"""`manage.py restore PATH`: replace the database's contents with a backup made by `manage.py backup`."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from config.backups import BackupError, CacheNotEmptied, restore


class Command(BaseCommand):
    help = "Replace everything in the database with the backup at PATH, in one transaction (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive")

    def handle(self, *args, path: Path, interactive: bool, **options):
        name = connection.settings_dict["NAME"]
        if interactive:
            answer = input(f"This replaces everything in the database {name!r} with {path}. Type 'yes': ")
            if answer.strip().lower() != "yes":
                raise CommandError("Restore cancelled; nothing was changed.")
        try:
            restore(path)
        except CacheNotEmptied as error:
            raise CommandError(str(error)) from error
        except BackupError as error:
            raise CommandError(f"{error} Nothing was changed.") from error
        self.stdout.write(self.style.SUCCESS(f"Restored {path} into {name}."))
        if not settings.CACHE_IS_SHARED:
            # Without Redis each web process keeps its cache in its own memory, which this process cannot reach.
            self.stdout.write(
                "Restart the web server: its memory still holds parts of pages of the data before."
            )
