from django.core.management.base import BaseCommand

from campaigns.models import Campaign


class Command(BaseCommand):
    help = "Load the demo campaign into an empty database (run by `make run`)."

    def handle(self, *args, **options):
        if Campaign.objects.exists():
            self.stdout.write("The database already has campaigns; the demo is not loaded again.")
            return
        self.stdout.write("The demo campaign is not written yet; the database stays empty.")
