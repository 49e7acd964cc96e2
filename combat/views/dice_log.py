"""The campaign's dice log at `/campaigns/<id>/dice/`: every roll, readable by every member (issue 6)."""

from urllib.parse import urlencode

from django import forms
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaigns.access import get_campaign_for_user
from campaigns.models import Game
from combat import selectors
from rosters.models import Warband
from rosters.widgets import FastSelect


class DiceLogFilterForm(forms.Form):
    """Rolls of one game (by its number) or one warband."""

    game = forms.IntegerField(required=False, min_value=1, max_value=1_000_000, label="Game number")
    warband = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, widget=FastSelect)

    def __init__(self, data, *, campaign):
        super().__init__(data)
        terms = campaign.terms
        self.campaign = campaign
        self.game_id = None
        self.fields["game"].widget.attrs.update(placeholder="Every game", inputmode="numeric")
        warbands = Warband.objects.filter(campaign=campaign).order_by("name", "id").values_list("id", "name")
        self.fields["warband"].label = terms.warband_title
        self.fields["warband"].choices = [("", f"Every {terms.warband}"), *warbands]

    def clean_game(self):
        number = self.cleaned_data.get("game")
        if number is not None:
            self.game_id = (
                Game.objects.filter(campaign=self.campaign, number=number)
                .values_list("id", flat=True)
                .first()
            )
            if self.game_id is None:
                raise forms.ValidationError(f"There is no Game {number} in this campaign.")
        return number

    def querystring(self) -> str:
        if not self.is_valid():
            return ""
        return urlencode({k: v for k, v in self.cleaned_data.items() if v is not None})


@require_GET
@login_required
def campaign_dice_log(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    form = DiceLogFilterForm(request.GET, campaign=campaign)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    context = {
        "campaign": campaign,
        "membership": membership,
        "terms": campaign.terms,
        "form": form,
        "log_url": url,
        "page": selectors.DiceLogPage(rolls=[], older=None),
    }
    if not form.is_valid():
        # htmx swaps a 422 in (base.html): the message takes the log's place where the player is looking.
        if request.htmx and request.htmx.target == "dice-log":
            return render(request, "combat/dice_log.html#dice-log", context, status=422)
        return render(request, "combat/dice_log.html", context, status=400)
    before = request.GET.get("before") or None
    try:
        page = selectors.dice_log_page(
            campaign=campaign,
            before=before,
            game_id=form.game_id,
            warband_id=form.cleaned_data["warband"],
        )
    except selectors.BadDiceCursor as error:
        context["error"] = str(error)
        return render(request, "combat/dice_log.html", context, status=400)
    query = form.querystring()
    more = urlencode({"before": page.older}) if page.older else ""
    context.update(
        page=page,
        before=before,
        more_url=f"{url}?{'&'.join(p for p in (query, more) if p)}" if page.older else None,
        newest_url=f"{url}?{query}" if query else url,
    )
    if request.htmx and before:
        return render(request, "combat/dice_log.html#dice-log-older", context)
    if request.htmx and request.htmx.target == "dice-log":
        return render(request, "combat/dice_log.html#dice-log", context)
    return render(request, "combat/dice_log.html", context)
