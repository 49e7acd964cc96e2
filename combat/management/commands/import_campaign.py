"""`manage.py import_campaign PATH`: recreate a campaign exported by `export_campaign`, all or nothing."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from combat.campaign_export import CampaignImportRefused, import_campaign


class Command(BaseCommand):
    help = (
        "Import a campaign export file into this install (a fresh one, or one that never held the campaign)."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            text = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{path} cannot be read ({error.strerror}).") from None
        try:
            campaign = import_campaign(text)
        except CampaignImportRefused as error:
            raise CommandError(f"{error} Nothing was imported.") from None
        self.stdout.write(self.style.SUCCESS(f"{campaign.name} imported (campaign {campaign.pk})."))
