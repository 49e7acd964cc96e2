"""`manage.py backup PATH`: the whole database, history included, in one file (config/backups.py)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from config.backups import BackupError, backup


class Command(BaseCommand):
    help = (
        "Back the whole database up into PATH (pg_dump custom format); `manage.py restore PATH` restores it."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            backup(path)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"Backed up to {path} ({path.stat().st_size} bytes)."))
