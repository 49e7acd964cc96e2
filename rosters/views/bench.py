"""Trivial views for `make bench` (bench/bench_web.py): only routed when BENCH_VIEWS=true.

They go through the same middleware as every page but render no template, so the pages' throughput can be given
as a ratio of theirs. `authenticated` is the baseline the aims are set against: it loads the session and the user,
as every page a member reads must, and nothing else. `plain` loads neither (printed for comparison).
"""

from django.http import HttpResponse


def plain(request):
    return HttpResponse("ok\n", content_type="text/plain")


def authenticated(request):
    """The session and its user loaded, as for any page of a logged-in member; 403 for anyone else."""
    if not request.user.is_authenticated:
        return HttpResponse("not logged in\n", content_type="text/plain", status=403)
    return HttpResponse(f"ok {request.user.pk}\n", content_type="text/plain")
