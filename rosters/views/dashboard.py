"""The home page. It shows warbands and games, so it lives in `rosters`, the highest app it needs."""

from django.shortcuts import render
from django.utils.functional import SimpleLazyObject

from campaigns.terms import PRESET_TERMS
from rosters.selectors.dashboard import dashboard_for
from rosters.views.common import cacheable


def _kept_words(warbands) -> dict:
    """What to call "your warbands" when they may come from several campaigns: each preset's own word, in the
    presets' order ("warbands", "crews", or "warbands and crews")."""
    presets = {warband.campaign.preset for warband in warbands}
    terms = [t for preset, t in PRESET_TERMS.items() if preset in presets]
    return {
        "plural": " and ".join(t.warbands for t in terms) or "warbands",
        "title": " / ".join(t.warband_title for t in terms) or "Warband",
    }


@cacheable()
def dashboard(request):
    """A visitor learns what the tool is; a member sees their campaigns, warbands and what waits for them."""
    if not request.user.is_authenticated:
        return render(request, "campaigns/welcome.html")
    board = dashboard_for(user=request.user)
    # Read only when the page is drawn again: a page found kept under `board.key` never parses its warbands.
    kept = SimpleLazyObject(lambda: _kept_words(board.warbands))
    return render(request, "rosters/dashboard.html", {"dashboard": board, "kept": kept})
