"""Editing and deleting a piece of Battlekit (creating and moving it: rosters/views/warbands.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from rosters.access import get_item_for_user
from rosters.forms.battlekit import ItemForm
from rosters.services import battlekit as battlekit_services
from rosters.views.common import UNPROCESSABLE, add_errors, back_url, redirect_back
from rosters.views.warbands import render_roster


@login_required
def item_edit(request, item_id: int):
    item, membership = get_item_for_user(request.user, item_id, write=True)
    terms = item.warband.campaign.terms
    initial = {
        "name": item.name,
        "notes": item.notes,
        "keywords": ", ".join(item.keywords),
        "removable": item.removable,
        "cost": item.cost,
    }
    form = ItemForm(request.POST or None, initial=initial, holders=[], terms=terms, with_holder=False)
    context = {
        "form": form,
        "item": item,
        "warband": item.warband,
        "campaign": item.warband.campaign,
        "terms": terms,
        # Cancel goes back where Edit was pressed: the fighter's card, or the roster's Arsenal.
        "back": back_url(request, reverse("warband_detail", args=[item.warband.pk]) + "#arsenal"),
    }
    if request.method == "POST":
        if form.is_valid():
            try:
                battlekit_services.item_update(item=item, by=request.user, changes=form.service_arguments())
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, f"{form.cleaned_data['name']} saved.")
                return redirect_back(request, reverse("warband_detail", args=[item.warband.pk]) + "#arsenal")
        return render(request, "rosters/item_form.html", context, status=UNPROCESSABLE)
    return render(request, "rosters/item_form.html", context)


@login_required
@require_POST
def item_delete(request, item_id: int):
    item, membership = get_item_for_user(request.user, item_id, write=True)
    battlekit_services.item_delete(item=item, by=request.user)
    messages.success(request, f"{item.name} taken off the roster.")
    return redirect_back(request, reverse("warband_detail", args=[item.warband.pk]) + "#arsenal")


@login_required
@require_POST
def item_sell(request, item_id: int):
    """Sell surplus Battlekit for half its cost, rounded up (RULING C-3); refused (422, nothing changed) for kit
    that cannot be removed from its fighter."""
    item, membership = get_item_for_user(request.user, item_id, write=True)
    terms = item.warband.campaign.terms
    try:
        price = battlekit_services.item_sell(item=item, by=request.user)
    except ValidationError as refusal:
        return render_roster(
            request, item.warband, membership, status=UNPROCESSABLE, sell_error=" ".join(refusal.messages)
        )
    messages.success(request, f"{item.name} sold for {price} {terms.currency} (RULING C-3).")
    return redirect_back(request, reverse("warband_detail", args=[item.warband.pk]) + "#arsenal")
