"""A fighter: its card, adding one, editing its roster row in place, XP +/-, leaving and rejoining the roster,
Injuries added or struck off by hand.

In-place editing (docs/architecture.md: "htmx swaps only what changed"): each roster row is `<tr id="fighter-row-<id>">`.
Edit asks for the row's form (`rosters/warband.html#fighter-row-form`), Save and the XP buttons answer with the
row (`#fighter-row`), and bad input answers the row's form with its messages and status 422, changing nothing.
Without JavaScript, Edit opens a full page and the buttons post and come back to the roster.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_POST

from campaigns.selectors import trauma_table_rows
from rosters.access import (
    can_change_warband,
    get_card_for_user,
    get_fighter_for_user,
    get_injury_for_user,
    get_skill_for_user,
    get_warband_for_user,
)
from rosters.forms.battlekit import ItemForm
from rosters.forms.fighters import FighterForm, RecruitForm, RemoveFighterForm, RestoreForm, XPForm
from rosters.forms.injuries import InjuryForm
from rosters.forms.skills import SkillForm
from rosters.selectors import fighters as fighter_selectors
from rosters.selectors import price_lists as price_selectors
from rosters.selectors import roster as roster_selectors
from rosters.services import fighters as fighter_services
from rosters.services import injuries as injury_services
from rosters.services import skills as skill_services
from rosters.views.common import UNPROCESSABLE, add_errors, cacheable
from rosters.views.undo import undo_url
from rosters.views.warbands import row_context


def _roster_url(fighter) -> str:
    return reverse("warband_detail", args=[fighter.warband_id]) + f"#fighter-row-{fighter.pk}"


def _row(request, fighter_id: int, membership, *, status: int = 200, error: str | None = None):
    fighter = roster_selectors.fighter_for_row(fighter_id=fighter_id)
    context = {
        "fighter": fighter,
        "row_error": error,
        **row_context(fighter.warband, can_change=can_change_warband(membership, fighter.warband)),
    }
    return render(request, "rosters/warband.html#fighter-row", context, status=status)


def _card_context(fighter, membership, *, card=None, **forms) -> dict:
    """The card's context. The card is cached whole under `card_key` (rosters/selectors/fighters.py), so what only
    a card drawn again reads (the fighter's kit, its marks, the forms and the price list) is made on first use;
    a form sent back with its errors is drawn, never cached (no `card_key`), from the fighter as it is stored
    (a refused service may have changed the row in memory). `card` is the one read with the access check, if it
    was."""
    if forms:
        fighter.refresh_from_db()
    card = card or fighter_selectors.fighter_card(fighter=fighter)
    terms = card.terms
    campaign = fighter.warband.campaign
    can_change = can_change_warband(membership, fighter.warband)
    context = {
        "card": card,
        "card_key": None if forms else card.key,
        "fighter": SimpleLazyObject(lambda: card.fighter),
        "warband": fighter.warband,
        "campaign": campaign,
        "membership": membership,
        "terms": terms,
        "can_change": can_change,
    }
    if can_change:
        context["remove_form"] = forms.get("remove_form") or SimpleLazyObject(
            lambda: RemoveFighterForm(terms=terms)
        )
        context["injury_form"] = forms.get("injury_form") or SimpleLazyObject(
            lambda: InjuryForm(table_rows=trauma_table_rows(campaign=campaign))
        )
        context["skill_form"] = forms.get("skill_form") or SimpleLazyObject(SkillForm)
        context["item_form"] = forms.get("item_form") or SimpleLazyObject(
            lambda: ItemForm(
                holders=[fighter],
                terms=terms,
                initial={"holder": str(fighter.pk)},
                buying=True,
                listed=price_selectors.listed(campaign=campaign, kind="battlekit"),
            )
        )
    return context


@login_required
@cacheable(scope="fighter_id")
def fighter_detail(request, fighter_id: int):
    # The fighter, its card's digest and whatever a card drawn again reads, in one snapshot; the access check, the
    # fighter and the digest in its first query.
    with fighter_selectors.consistent_reads():
        card, membership = get_card_for_user(request.user, fighter_id)
        return render(request, "rosters/fighter.html", _card_context(card.head, membership, card=card))


@login_required
def fighter_create(request, warband_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    terms = warband.campaign.terms
    # `?type=<name>` fills the form from the price list's fighter type (the player may still change it).
    listed = price_selectors.listed(campaign=warband.campaign, kind="fighters")
    picked = next((row for row in listed if row["name"] == request.GET.get("type")), None)
    initial = RecruitForm.initial_from_list(picked, terms) if picked else None
    form = RecruitForm(request.POST or None, terms=terms, initial=initial)
    context = {
        "form": form,
        "warband": warband,
        "campaign": warband.campaign,
        "terms": terms,
        "listed": listed,
        "picked": picked,
    }
    if request.method == "POST":
        if form.is_valid():
            arguments = form.service_arguments()
            try:
                fighter = fighter_services.fighter_create(
                    warband=warband,
                    by=request.user,
                    elite=arguments["elite"],
                    pay=arguments["pay"],
                    **arguments["changes"],
                )
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, f"{fighter.name} joined {warband.name}.")
                if "add_another" in request.POST:
                    return redirect("fighter_create", warband_id=warband.pk)
                return redirect(_roster_url(fighter))
        return render(request, "rosters/fighter_form.html", context, status=UNPROCESSABLE)
    return render(request, "rosters/fighter_form.html", context)


@login_required
def fighter_edit(request, fighter_id: int):
    """The fighter's form: in its roster row with htmx, on a page of its own without."""
    fighter, membership = get_fighter_for_user(request.user, fighter_id, write=True)
    terms = fighter.warband.campaign.terms
    form = FighterForm(request.POST or None, terms=terms, fighter=fighter)
    context = {
        "form": form,
        "fighter": fighter,
        "warband": fighter.warband,
        "campaign": fighter.warband.campaign,
        "terms": terms,
    }
    template = "rosters/warband.html#fighter-row-form" if request.htmx else "rosters/fighter_form.html"
    if request.method == "POST":
        if form.is_valid():
            arguments = form.service_arguments()
            try:
                fighter_services.fighter_update(fighter=fighter, by=request.user, **arguments)
            except ValidationError as error:
                add_errors(form, error)
            else:
                if request.htmx:
                    return _row(request, fighter.pk, membership)
                messages.success(request, f"{form.cleaned_data['name']} saved.")
                return redirect(_roster_url(fighter))
        return render(request, template, context, status=UNPROCESSABLE)
    return render(request, template, context)


@login_required
def fighter_row(request, fighter_id: int):
    """The fighter's roster row (Cancel in the row's form asks for it)."""
    fighter, membership = get_fighter_for_user(request.user, fighter_id)
    if not request.htmx:
        return redirect(_roster_url(fighter))
    return _row(request, fighter.pk, membership)


@login_required
@require_POST
def fighter_xp(request, fighter_id: int):
    """Quick XP + / -: the row comes back with the new XP, or with the reason it did not change."""
    fighter, membership = get_fighter_for_user(request.user, fighter_id, write=True)
    form = XPForm(request.POST)
    error = None
    if form.is_valid():
        try:
            fighter_services.fighter_adjust_xp(
                fighter=fighter, delta=form.cleaned_data["delta"], by=request.user
            )
        except ValidationError as refusal:
            error = " ".join(refusal.messages)
    else:
        error = "Add or take away between 1 and 20 XP."
    if request.htmx:
        return _row(request, fighter.pk, membership, status=UNPROCESSABLE if error else 200, error=error)
    if error:
        messages.error(request, error)
    return redirect(_roster_url(fighter))


@login_required
@require_POST
def fighter_remove(request, fighter_id: int):
    """Off the active roster with a status; the roster then offers Undo."""
    fighter, membership = get_fighter_for_user(request.user, fighter_id, write=True)
    terms = fighter.warband.campaign.terms
    form = RemoveFighterForm(request.POST, terms=terms)
    if form.is_valid():
        try:
            removal = fighter_services.fighter_remove(
                fighter=fighter,
                status=form.cleaned_data["status"],
                battlekit=form.cleaned_data["battlekit"],
                by=request.user,
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            return redirect(undo_url(removal))
    context = _card_context(fighter, membership, remove_form=form)
    return render(request, "rosters/fighter.html", context, status=UNPROCESSABLE)


@login_required
@require_POST
def fighter_restore(request, fighter_id: int):
    """Back on the active roster (Undo of a removal, or a fix: "un-kill a fighter")."""
    fighter, membership = get_fighter_for_user(request.user, fighter_id, write=True)
    form = RestoreForm(request.POST)
    items = form.cleaned_data["items"] if form.is_valid() else []
    if fighter.is_active:
        messages.info(request, f"{fighter.name} is already on the roster.")
    else:
        fighter_services.fighter_restore(fighter=fighter, items=items, by=request.user)
        messages.success(request, f"{fighter.name} is back on the roster.")
    return redirect(_roster_url(fighter))


@login_required
@require_POST
def injury_create(request, fighter_id: int):
    fighter, membership = get_fighter_for_user(request.user, fighter_id, write=True)
    form = InjuryForm(request.POST, table_rows=trauma_table_rows(campaign=fighter.warband.campaign))
    if form.is_valid():
        data = form.cleaned_data
        try:
            injury = injury_services.injury_add(
                fighter=fighter,
                by=request.user,
                code=data["code"],
                name=data["name"],
                effect=data.get("effect") or "",
                d66=data.get("d66"),
                reason=f"{request.user} recorded {data['name']} on {fighter.name} by hand",
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, f"{fighter.name}: {injury.name} recorded.")
            return redirect(reverse("fighter_detail", args=[fighter.pk]) + "#injuries")
    context = _card_context(fighter, membership, injury_form=form)
    return render(request, "rosters/fighter.html", context, status=UNPROCESSABLE)


@login_required
@require_POST
def injury_delete(request, injury_id: int):
    injury, fighter = get_injury_for_user(request.user, injury_id, write=True)
    injury_services.injury_remove(injury=injury, by=request.user)
    messages.success(request, f"{injury.name} struck off {fighter.name}.")
    return redirect(reverse("fighter_detail", args=[fighter.pk]) + "#injuries")


@login_required
@require_POST
def skill_create(request, fighter_id: int):
    """A skill added by hand; one it already has is refused beside the field, 422, nothing saved."""
    fighter, membership = get_fighter_for_user(request.user, fighter_id, write=True)
    form = SkillForm(request.POST)
    if form.is_valid():
        try:
            skill = skill_services.skill_add(
                fighter=fighter,
                by=request.user,
                name=form.cleaned_data["name"],
                chart=form.cleaned_data["chart"],
            )
        except ValidationError as error:
            # Beside the skill's name: the one it already has, or a name the model refuses.
            for message in error.messages:
                form.add_error("name", message)
        else:
            messages.success(request, f"{fighter.name}: {skill.name} recorded.")
            return redirect(reverse("fighter_detail", args=[fighter.pk]) + "#skills")
    context = _card_context(fighter, membership, skill_form=form)
    return render(request, "rosters/fighter.html", context, status=UNPROCESSABLE)


@login_required
@require_POST
def skill_delete(request, skill_id: int):
    skill, fighter = get_skill_for_user(request.user, skill_id, write=True)
    skill_services.skill_remove(skill=skill, by=request.user)
    messages.success(request, f"{skill.name} struck off {fighter.name}.")
    return redirect(reverse("fighter_detail", args=[fighter.pk]) + "#skills")
