"""The campaign data pages at `/campaigns/<id>/data/`: members read, the organiser edits.

Like the Trauma Table editor (combat/views/trauma_table.py) they live in `combat`, beside the engine that says what
a skill chart or a Location table is; the campaign's settings page links here. Every save makes a new version;
a refused save answers 422 with every problem beside the field and changes nothing.

- `/data/`: every kind with its newest version, and the post-game's steps; POST `copy_demo` copies the made-up
  demo set into the kinds not saved yet, `post_game_steps` switches post-game steps on or off (house rules).
- `/data/<kind>/`: one kind, its rows and versions (`?version=2` shows an older one); POST `save` (the rows as
  CSV), `import` (a CSV or JSON file, or a paste), `copy_demo` (this kind's demo rows).
- `/data/<kind>/export/?format=csv|json`: a download of the newest version (or `&version=2`).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.access import get_campaign_for_user
from campaigns.models import Membership
from combat.campaign_data_io import CampaignDataError, rows_to_csv, rows_to_json
from combat.forms.campaign_data import DataImportForm, DataRowsForm
from combat.forms.post_game_switches import PostGameSwitchesForm
from combat.selectors import campaign_data as selectors
from combat.selectors.post_game.steps import post_game_switch_rows
from combat.services import campaign_data as services
from combat.services import post_game_switches as switches

UNPROCESSABLE = 422


def _context(campaign, membership) -> dict:
    return {
        "campaign": campaign,
        "membership": membership,
        "terms": campaign.terms,
        "can_edit": membership.role == Membership.Role.ORGANISER,
    }


def _version(request) -> int | None:
    raw = request.GET.get("version")
    if raw is None:
        return None
    if not raw.isdigit():
        raise Http404("No such version.")
    return int(raw)


def _overview(request, campaign, membership, *, switch_form=None, status=200):
    overview = selectors.data_overview(campaign=campaign)
    rows = post_game_switch_rows(campaign)
    switch_form = switch_form or PostGameSwitchesForm(initial={"on": [row.key for row in rows if row.on]})
    context = _context(campaign, membership) | {
        "overview": overview,
        "switches": rows,
        "switch_form": switch_form,
    }
    return render(request, "combat/campaign_data.html", context, status=status)


def _copy_demo_all(request, campaign, membership):
    made = services.campaign_data_copy_demo(campaign=campaign, by=request.user)
    if made:
        messages.success(request, f"The demo set is copied: {len(made)} lists of made-up names to edit.")
    else:
        messages.info(request, "Nothing to copy: every list has rows already.")
    return redirect("campaign_data", campaign_id=campaign.pk)


def _post_game_steps(request, campaign, membership):
    """The post-game's house rules: the steps switched on or off; a refusal answers 422 beside the boxes."""
    form = PostGameSwitchesForm(request.POST)
    if form.is_valid():
        try:
            switches.campaign_set_post_game_switches(
                campaign=campaign, on=form.cleaned_data["on"], by=request.user
            )
        except switches.PostGameSwitchError as error:
            form.add_error("on", str(error))
        else:
            messages.success(
                request, "The post-game's steps are saved: post-games started from now take them."
            )
            return redirect("campaign_data", campaign_id=campaign.pk)
    return _overview(request, campaign, membership, switch_form=form, status=UNPROCESSABLE)


OVERVIEW_ACTIONS = {"copy_demo": _copy_demo_all, "post_game_steps": _post_game_steps}


@login_required
@require_http_methods(["GET", "POST"])
def campaign_data(request, campaign_id: int):
    """Every kind of the campaign's data, with its newest version, and the post-game's steps; the organiser copies
    the demo set and switches post-game steps on or off (house rules) from here."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=request.method == "POST")
    if request.method == "POST":
        action = OVERVIEW_ACTIONS.get(request.POST.get("action", ""))
        if action is None:
            return HttpResponseBadRequest("Unknown action: copy_demo or post_game_steps.")
        return action(request, campaign, membership)
    return _overview(request, campaign, membership)


def _kind_page(request, campaign, membership, kind, *, rows_form=None, import_form=None, status=200):
    page = selectors.kind_page(campaign=campaign, kind=kind, version=_version(request))
    if page is None or (request.GET.get("version") and page.shown is None):
        raise Http404("No such data or version.")
    rows_form = rows_form or DataRowsForm(initial={"rows": page.csv})
    context = _context(campaign, membership) | {
        "page": page,
        "rows_form": rows_form,
        "import_form": import_form or DataImportForm(),
    }
    return render(request, "combat/campaign_data_kind.html", context, status=status)


def _saved(request, campaign, kind, data_set, new):
    if new:
        messages.success(request, f"Saved as v{data_set.version}: {len(data_set.rows)} rows.")
    else:
        messages.info(request, f"Nothing changed: the rows are v{data_set.version}'s.")
    return redirect("campaign_data_kind", campaign_id=campaign.pk, data_kind=kind)


def _save(request, campaign, membership, kind):
    form = DataRowsForm(request.POST)
    if form.is_valid():
        try:
            data_set, new = services.campaign_data_import(
                campaign=campaign,
                kind=kind,
                text=form.cleaned_data["rows"],
                fmt="csv",
                by=request.user,
                note=form.cleaned_data["note"],
            )
        except CampaignDataError as error:
            form.add_error("rows", list(error.problems))
        else:
            return _saved(request, campaign, kind, data_set, new)
    return _kind_page(request, campaign, membership, kind, rows_form=form, status=UNPROCESSABLE)


def _import(request, campaign, membership, kind):
    form = DataImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            data_set, new = services.campaign_data_import(
                campaign=campaign,
                kind=kind,
                text=form.content,
                fmt=form.fmt,
                by=request.user,
                note=form.cleaned_data["note"] or None,
            )
        except CampaignDataError as error:
            form.add_error("file" if form.cleaned_data.get("file") else "text", list(error.problems))
        else:
            return _saved(request, campaign, kind, data_set, new)
    return _kind_page(request, campaign, membership, kind, import_form=form, status=UNPROCESSABLE)


def _copy_demo(request, campaign, membership, kind):
    made = services.campaign_data_copy_demo(campaign=campaign, by=request.user, kinds=[kind])
    if made:
        messages.success(request, f"The demo rows are copied as v{made[0].version}: edit them below.")
    else:
        messages.info(request, "Nothing changed: the rows are the demo set's already.")
    return redirect("campaign_data_kind", campaign_id=campaign.pk, data_kind=kind)


ACTIONS = {"save": _save, "import": _import, "copy_demo": _copy_demo}


@login_required
@require_http_methods(["GET", "POST"])
def campaign_data_kind(request, campaign_id: int, data_kind: str):
    """One kind of the campaign's data: read it and its versions; the organiser saves, imports or copies."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=request.method == "POST")
    if request.method != "POST":
        return _kind_page(request, campaign, membership, data_kind)
    action = ACTIONS.get(request.POST.get("action"))
    if action is None:
        return HttpResponseBadRequest("Unknown action: save, import or copy_demo.")
    if not selectors.kind_is_known(campaign=campaign, kind=data_kind):
        raise Http404("The campaign keeps no such data.")
    return action(request, campaign, membership, data_kind)


@login_required
@require_GET
def campaign_data_export(request, campaign_id: int, data_kind: str):
    """A download of one version of one kind, as CSV or JSON (what the import reads back)."""
    campaign, _membership = get_campaign_for_user(request.user, campaign_id)
    fmt = request.GET.get("format", "csv")
    if fmt not in ("csv", "json"):
        return HttpResponseBadRequest("format must be csv or json.")
    page = selectors.kind_page(campaign=campaign, kind=data_kind, version=_version(request))
    if page is None or page.shown is None:
        raise Http404("Nothing saved yet: there is nothing to export.")
    rows, version = list(page.shown.rows), page.shown.version
    text = rows_to_csv(data_kind, rows) if fmt == "csv" else rows_to_json(data_kind, rows, version=version)
    response = HttpResponse(text, content_type="text/csv" if fmt == "csv" else "application/json")
    filename = f"{data_kind.replace(':', '-')}-v{version}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
