import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from config.apps import freeze_start_up

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
# The URLs are loaded on the first request otherwise: loaded now, they are frozen with the rest of the start-up
# (config/apps.py, freeze_start_up).
get_resolver().check()  # imports every URL module, as the first request would
freeze_start_up()
