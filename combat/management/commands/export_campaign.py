"""`manage.py export_campaign CAMPAIGN_ID PATH`: a whole campaign as one JSON file (combat/campaign_export.py)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from combat.campaign_export import export_campaign_json


class Command(BaseCommand):
    help = "Write a whole campaign (members, warbands, games, post-games, tracker, dice log) to PATH as JSON."

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("path", type=Path)

    def handle(self, *args, campaign_id: int, path: Path, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"There is no campaign {campaign_id}.")
        path.write_text(export_campaign_json(campaign), encoding="utf-8")
        self.stdout.write(self.style.SUCCESS(f"{campaign.name} exported to {path}."))
