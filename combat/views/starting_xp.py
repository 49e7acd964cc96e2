"""A late joiner's starting XP page (CAMPAIGN_PHASE.md, late joiners): `/warbands/<id>/starting-xp/`.

One page: the shares among the ELITE fighters, then one card per Skill Advancement Roll those XP reach (the
post-game's Advancement cards and form), then the Apply, once only. Each POST is one write; a refusal comes back
with status 422, its reason beside the form or on the card, and nothing changed; with htmx the step's section is
swapped in place.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from combat.forms.fixes import FixForm
from combat.forms.post_game_advancement import CHARTS, PICK, AdvancementForm
from combat.forms.postgame import form_reason
from combat.forms.starting_xp import SharesForm
from combat.selectors.starting_xp import starting_xp_page
from combat.services import starting_xp as services
from combat.views.post_game.common import UNPROCESSABLE
from rosters.access import can_change_warband, get_warband_for_user

TEMPLATE = "combat/starting_xp.html"


def _urls(warband) -> dict:
    args = [warband.pk]
    return {
        # The Advancement cards post to `urls.advancement` (templates/combat/post_game_advancement.html).
        "advancement": reverse("starting_xp", args=args),
        "share": reverse("starting_xp_share", args=args),
        "apply": reverse("starting_xp_apply", args=args),
        "roster": reverse("warband_detail", args=args),
        # The roll-fix form of templates/combat/post_game_parts.html adds the roll's id and "/".
        "correct": f"{reverse('starting_xp', args=args)}rolls/",
    }


def _render(request, warband, membership, *, status=200, card_id=None, error=None, entered=None, form=None):
    page = starting_xp_page(warband=warband)
    can_write = can_change_warband(membership, warband) and not page.applied
    for card in page.advancement.cards:
        if card.id == card_id:
            card.card_error, card.entered = error, entered
    context = {
        "warband": warband,
        "campaign": warband.campaign,
        "terms": warband.campaign.terms,
        "state": page,
        "can_write": can_write,
        "can_fix": can_write,  # a typed die is corrected until the Apply (the dice log's rules)
        "urls": _urls(warband),
        "step_target": "#starting-xp-step",
        "shares_form": form or SharesForm(lines=page.lines),
        "error": error if card_id is None else None,
    }
    template = f"{TEMPLATE}#starting-xp-step" if request.htmx and request.method == "POST" else TEMPLATE
    return render(request, template, context, status=status)


def _done(request, warband, anchor: str = ""):
    if request.htmx:
        return _render(request, *get_warband_for_user(request.user, warband.pk))
    return redirect(f"{reverse('starting_xp', args=[warband.pk])}{anchor}")


def _card_write(form: AdvancementForm, warband, by):
    data = form.cleaned_data
    card = {"warband": warband, "fighter_id": data["fighter"], "number": data["number"], "by": by}
    if data["do"] == CHARTS:
        return services.starting_xp_charts(
            first_chart=data["first_chart"], second_chart=data["second_chart"], **card
        )
    if data["do"] == PICK:
        return services.starting_xp_pick(skill_code=data["skill"], **card)
    return services.starting_xp_roll(die=data["die"], faces=data["faces"], **card)


@require_http_methods(["GET", "POST"])
@login_required
def starting_xp(request, warband_id: int):
    """The page; a POST is one Advancement card's write (charts, a 2D6 rolled or typed, the skill taken)."""
    posted = request.method == "POST"
    warband, membership = get_warband_for_user(request.user, warband_id, write=posted)
    if not posted:
        return _render(request, warband, membership)
    form = AdvancementForm(request.POST)
    refused = {"status": UNPROCESSABLE, "card_id": form.card_id, "entered": form.entered()}
    if not form.is_valid():
        return _render(request, warband, membership, error=form_reason(form), **refused)
    try:
        made = _card_write(form, warband, request.user)
    except services.StartingXpError as error:
        return _render(request, warband, membership, error=str(error), **refused)
    if getattr(made, "created", True) is False:
        messages.info(request, f"Already rolled: {made.roll.dice_roll.label}. Shown again, not rolled twice.")
    return _done(request, warband, f"#card-{form.card_id}")


@require_POST
@login_required
def starting_xp_share(request, warband_id: int):
    """The starting XP shared among the ELITE fighters."""
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    form = SharesForm(request.POST, lines=starting_xp_page(warband=warband).lines)
    if not form.is_valid():
        return _render(request, warband, membership, status=UNPROCESSABLE, error=form_reason(form), form=form)
    try:
        services.starting_xp_share(warband=warband, shares=form.shares(), by=request.user)
    except services.StartingXpError as error:
        return _render(request, warband, membership, status=UNPROCESSABLE, error=str(error), form=form)
    return _done(request, warband)


@require_POST
@login_required
def starting_xp_apply(request, warband_id: int):
    """Once only: the XP and the skills written on the roster."""
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    try:
        services.starting_xp_apply(warband=warband, by=request.user)
    except services.StartingXpError as error:
        return _render(request, warband, membership, status=UNPROCESSABLE, error=str(error))
    messages.success(request, f"{warband.name}'s starting XP is ticked: the roster shows it.")
    return redirect("warband_detail", warband_id=warband.pk)


@require_POST
@login_required
def starting_xp_correct(request, warband_id: int, roll_id: int):
    """Correct a 2D6 typed from the table: the faces really rolled and why (owner or organiser), before the Apply."""
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    form = FixForm(request.POST)
    if not form.is_valid() or form.faces() is None:
        error = form_reason(form) if form.errors else "Enter the faces that were really rolled."
        return _render(request, warband, membership, status=UNPROCESSABLE, error=error)
    try:
        services.starting_xp_correct_roll(
            warband=warband,
            roll_id=roll_id,
            faces=form.faces(),
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except services.StartingXpError as error:
        return _render(request, warband, membership, status=UNPROCESSABLE, error=str(error))
    messages.success(
        request, "Corrected: the typed roll stays in the dice log, struck, and the right faces count."
    )
    return redirect("starting_xp", warband_id=warband.pk)
