"""The roster page (`/warbands/<id>/`), its print view, editing the warband, and Battlekit moves.

Rows of the roster are changed by the fighter views (rosters/views/fighters.py), each swapping only its own row.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_POST

from rosters.access import can_change_warband, get_roster_for_user, get_warband_for_user
from rosters.forms.battlekit import ItemForm, ItemMoveForm
from rosters.forms.warbands import WarbandForm
from rosters.models import WARBAND_FIELDS
from rosters.selectors import limits as limits_selectors
from rosters.selectors import price_lists as price_selectors
from rosters.selectors import roster as roster_selectors
from rosters.services import battlekit as battlekit_services
from rosters.services import warbands as warband_services
from rosters.views.common import UNPROCESSABLE, add_errors, cacheable, redirect_back
from rosters.views.undo import undo_offer


def row_context(warband, *, can_change: bool) -> dict:
    """What every roster row reads besides its fighter (the row partial is rendered 50 times a page)."""
    campaign = warband.campaign
    return {
        "warband": warband,
        "campaign": campaign,
        "terms": campaign.terms,
        "can_change": can_change,
        "scar_limit": campaign.scar_limit,
        # A Battle Scar short of the limit: the next one makes an ELITE fighter Unfit For Duty (RULING T-4).
        "scar_warning": campaign.scar_limit - 1,
    }


# What a roster page shows for one request only (a refused form with its messages, a move's outcome, an Undo
# offer): a page with any of them is drawn, never cached whole.
ONE_REQUEST_PARTS = ("item_form", "moved", "move_error", "sell_error", "undo")


def roster_context(request, warband, membership, *, all_rows: bool = False, roster=None, **extra) -> dict:
    """The roster page's context. The page is cached whole under `roster_key` (the roster's digest,
    rosters/selectors/roster.py), so what only a page drawn again reads (the value and limits, the Add form and
    its price list) is made on first use. `roster` is the one read with the access check, if it was."""
    roster = roster or roster_selectors.warband_roster(warband=warband, all_rows=all_rows)
    terms = roster.terms
    can_change = can_change_warband(membership, warband)
    context = {
        "roster": roster,
        "roster_key": None
        if any(extra.get(name) is not None for name in ONE_REQUEST_PARTS)
        else roster.page_key,
        # The value against the next battle's Threshold Value and Field Strength.
        "limits": SimpleLazyObject(lambda: limits_selectors.warband_limits(warband=warband)),
        "membership": membership,
        **row_context(warband, can_change=can_change),
        **extra,
    }
    if can_change:
        context.setdefault(
            "item_form",
            SimpleLazyObject(
                lambda: ItemForm(
                    holders=[],
                    terms=terms,
                    with_holder=False,
                    buying=True,
                    listed=price_selectors.listed(campaign=warband.campaign, kind="battlekit"),
                )
            ),
        )
    return context


def render_roster(request, warband, membership, *, template: str | None = None, status: int = 200, **extra):
    """The roster page (or its `#roster` part), read in one snapshot: its cached parts are keyed on a digest of
    the rows they show (rosters/selectors/roster.py), and the rows are read after the digest, in the same snapshot."""
    with roster_selectors.consistent_reads():
        context = roster_context(request, warband, membership, **extra)
        return render(request, template or "rosters/warband.html", context, status=status)


# The parts an htmx request may ask for by `?part=`: the roster (after a Battlekit move) and the rows after the
# first screen (the #later-fighters row fetches them).
ROSTER_PARTS = {"roster": "rosters/warband.html#roster", "later": "rosters/warband.html#later-fighters"}


@login_required
@cacheable(query=("part", "fighters"), scope="warband_id")
def warband_detail(request, warband_id: int):
    template = ROSTER_PARTS.get(request.GET.get("part", "")) if request.htmx else None
    # The access check, the warband and its digest in one query, inside the snapshot render_roster reads the rows
    # of a page drawn again in.
    with roster_selectors.consistent_reads():
        roster, membership = get_roster_for_user(
            request.user, warband_id, all_rows=request.GET.get("fighters") == "all"
        )
        warband = roster.warband
        return render_roster(
            request, warband, membership, template=template, roster=roster, undo=undo_offer(request, warband)
        )


@login_required
def warband_print(request, warband_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id)
    roster = roster_selectors.warband_roster(warband=warband, all_rows=True)
    return render(
        request,
        "rosters/warband_print.html",
        {"roster": roster, "warband": warband, "campaign": warband.campaign, "terms": roster.terms},
    )


@login_required
def warband_edit(request, warband_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    terms = warband.campaign.terms
    initial = {name: getattr(warband, name) for name in WARBAND_FIELDS}
    form = WarbandForm(
        request.POST or None, initial=initial, terms=terms, editing=True, uses=warband.campaign.uses
    )
    context = {"form": form, "warband": warband, "campaign": warband.campaign, "terms": terms}
    if request.method == "POST":
        if form.is_valid():
            try:
                warband_services.warband_update(warband=warband, by=request.user, changes=form.cleaned_data)
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, "Saved.")
                return redirect("warband_detail", warband_id=warband.pk)
        return render(request, "rosters/warband_form.html", context, status=UNPROCESSABLE)
    return render(request, "rosters/warband_form.html", context)


@login_required
@require_POST
def item_create(request, warband_id: int):
    """New Battlekit, for a fighter or the Arsenal (from the roster page or a fighter's card)."""
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    terms = warband.campaign.terms
    holders = roster_selectors.holders_for(warband=warband)
    listed = price_selectors.listed(campaign=warband.campaign, kind="battlekit")
    form = ItemForm(request.POST, holders=holders, terms=terms, buying=True, listed=listed)
    if form.is_valid():
        try:
            item = battlekit_services.item_create(
                warband=warband,
                by=request.user,
                fighter=form.holder_fighter(),
                pay=form.pays(),
                **form.service_arguments(),
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            where = item.fighter.name if item.fighter else f"the {terms.arsenal}"
            messages.success(request, f"{item.name} added to {where}.")
            return redirect_back(request, reverse("warband_detail", args=[warband.pk]) + "#arsenal")
    return render_roster(request, warband, membership, status=UNPROCESSABLE, item_form=form)


@login_required
@require_POST
def item_move(request, warband_id: int):
    """Give a piece of Battlekit to another fighter or put it in the Arsenal; with htmx, the roster is swapped."""
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    form = ItemMoveForm(
        request.POST,
        items=roster_selectors.movable_items(warband=warband),
        holders=roster_selectors.holders_for(warband=warband),
        terms=warband.campaign.terms,
    )
    try:
        moved = _move(form, by=request.user)
    except ValidationError as refusal:
        template = "rosters/warband.html#roster" if request.htmx else None
        return render_roster(
            request, warband, membership, template=template, status=UNPROCESSABLE, move_error=refusal.message
        )
    if not request.htmx:
        messages.success(request, moved)
        return redirect_back(request, reverse("warband_detail", args=[warband.pk]) + "#arsenal")
    return render_roster(request, warband, membership, template="rosters/warband.html#roster", moved=moved)


def _move(form: ItemMoveForm, *, by) -> str:
    """Move the form's Battlekit; what happened, in words. A bad form or a refusal raises ValidationError."""
    terms = form.terms
    if not form.is_valid():
        raise ValidationError(
            " ".join(form.non_field_errors()) or f"Choose a piece of {terms.battlekit} and where it goes."
        )
    item, holder = form.cleaned_item(), form.cleaned_holder()
    try:
        battlekit_services.item_move(item=item, to_fighter=holder, by=by)
    except ValidationError as refusal:
        raise ValidationError(" ".join(refusal.messages)) from None
    where = holder.name if holder else f"the {terms.arsenal}"
    return f"{item.name} is now with {where}."


@login_required
@require_POST
def warband_disband(request, warband_id: int):
    """Disband the warband (kept in the standings, marked: RULING W-2); refused with 422 while it is in a game."""
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    try:
        warband_services.warband_disband(warband=warband, by=request.user)
    except ValidationError as refusal:
        return render_roster(
            request, warband, membership, status=UNPROCESSABLE, sell_error=" ".join(refusal.messages)
        )
    messages.success(request, f"{warband.name} is disbanded: it stays in the standings, marked.")
    return redirect("warband_detail", warband_id=warband.pk)
