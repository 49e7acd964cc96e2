"""A bare plain-text view for `make bench` (bench/bench_web.py): only routed when BENCH_VIEWS=true.

It goes through the same middleware as every page but touches no database and renders no template, so the
roster and campaign pages' throughput can be given as a ratio of it.
"""

from django.http import HttpResponse


def plain(request):
    return HttpResponse("ok\n", content_type="text/plain")
