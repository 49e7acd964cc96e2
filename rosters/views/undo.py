"""The roster's Undo offer after a fighter leaves it, carried in the roster's URL rather than the session.

The removal's answer redirects to the roster with what the offer shows (who left, how, where their Battlekit
went), signed so that no one can forge an offer; the roster's GET reads it and writes nothing (docs/architecture.md: a
GET never writes, and popping a value from the session is a write). The plain roster URL shows no offer.
"""

from urllib.parse import urlencode

from django.core import signing
from django.urls import reverse

SALT = "rosters.undo-removal"
# Long enough to think again; past it, the fighter's card still puts them back on the roster.
MAX_AGE_SECONDS = 30 * 60


def undo_url(removal) -> str:
    """The roster of the removed fighter's warband, offering Undo of `removal` (services.fighters.Removal)."""
    fighter = removal.fighter
    offer = {
        "warband": fighter.warband_id,
        "fighter": fighter.pk,
        "name": fighter.name,
        "status": fighter.get_status_display(),
        "items": ",".join(str(pk) for pk in removal.moved_to_arsenal),
        "moved": len(removal.moved_to_arsenal),
        "lost": list(removal.lost),
    }
    token = signing.dumps(offer, salt=SALT, compress=True)
    return f"{reverse('warband_detail', args=[fighter.warband_id])}?{urlencode({'undo': token})}#undo"


def undo_offer(request, warband) -> dict | None:
    """The Undo offer the roster's URL carries for this warband, or None (none, forged, stale, or another's)."""
    token = request.GET.get("undo")
    if not token:
        return None
    try:
        offer = signing.loads(token, salt=SALT, max_age=MAX_AGE_SECONDS)
    except signing.BadSignature:
        return None
    return offer if isinstance(offer, dict) and offer.get("warband") == warband.pk else None
