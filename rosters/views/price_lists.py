"""A campaign's price lists at `/campaigns/<id>/prices/`: members read, the organiser edits.

Like the campaign data pages (combat/views/campaign_data.py): every save is a new version; a refused save answers
422 with every problem beside the field and changes nothing. POST `action` is `save` (the rows as CSV), `import`
(a CSV or JSON file, or a paste) or `copy_demo` (the made-up demo lists into the lists not saved yet), with
`kind` naming the list. `/prices/<kind>/export/?format=csv|json` downloads the newest version (or `&version=2`).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.access import get_campaign_for_user
from campaigns.models import Membership
from rosters.forms.price_lists import PriceImportForm, PriceRowsForm
from rosters.models import PriceList
from rosters.price_lists import FIELDS, PriceListError, rows_to_csv, rows_to_json
from rosters.selectors import price_lists as selectors
from rosters.services import price_lists as services
from rosters.views.common import UNPROCESSABLE


def _page(request, campaign, membership, *, forms=None, status=200):
    newest = selectors.newest_price_lists(campaign=campaign)
    forms = forms or {}
    lists = [
        {
            "kind": kind,
            "title": PriceList.Kind(kind).label,
            "fields": FIELDS[kind],
            "shown": newest[kind],
            "rows_form": forms.get(("save", kind))
            or PriceRowsForm(
                kind=kind, initial={"rows": rows_to_csv(kind, newest[kind].rows if newest[kind] else [])}
            ),
            "import_form": forms.get(("import", kind)) or PriceImportForm(kind=kind),
        }
        for kind in PriceList.Kind.values
    ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "terms": campaign.terms,
        "can_edit": membership.role == Membership.Role.ORGANISER,
        "lists": lists,
    }
    return render(request, "rosters/price_lists.html", context, status=status)


def _saved(request, campaign, price_list, new):
    if new:
        messages.success(request, f"Saved as v{price_list.version}: {len(price_list.rows)} rows.")
    else:
        messages.info(request, f"Nothing changed: the rows are v{price_list.version}'s.")
    return redirect("price_lists", campaign_id=campaign.pk)


def _save(request, campaign, membership, kind):
    form = PriceRowsForm(request.POST, kind=kind)
    if form.is_valid():
        try:
            price_list, new = services.price_list_import(
                campaign=campaign,
                kind=kind,
                text=form.cleaned_data["rows"],
                fmt="csv",
                by=request.user,
                note=form.cleaned_data["note"],
            )
        except PriceListError as error:
            form.add_error("rows", list(error.problems))
        else:
            return _saved(request, campaign, price_list, new)
    return _page(request, campaign, membership, forms={("save", kind): form}, status=UNPROCESSABLE)


def _import(request, campaign, membership, kind):
    form = PriceImportForm(request.POST, request.FILES, kind=kind)
    if form.is_valid():
        try:
            price_list, new = services.price_list_import(
                campaign=campaign,
                kind=kind,
                text=form.content,
                fmt=form.fmt,
                by=request.user,
                note=form.cleaned_data["note"] or None,
            )
        except PriceListError as error:
            form.add_error("file" if form.cleaned_data.get("file") else "text", list(error.problems))
        else:
            return _saved(request, campaign, price_list, new)
    return _page(request, campaign, membership, forms={("import", kind): form}, status=UNPROCESSABLE)


@login_required
@require_http_methods(["GET", "POST"])
def price_lists(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=request.method == "POST")
    if request.method != "POST":
        return _page(request, campaign, membership)
    action = request.POST.get("action")
    if action == "copy_demo":
        made = services.price_list_copy_demo(campaign=campaign, by=request.user)
        if made:
            messages.success(request, f"{len(made)} made-up lists copied: edit them below.")
        else:
            messages.info(request, "Nothing to copy: both lists have rows already.")
        return redirect("price_lists", campaign_id=campaign.pk)
    kind = request.POST.get("kind")
    if kind not in PriceList.Kind.values or action not in ("save", "import"):
        return HttpResponseBadRequest(
            "Unknown action or list: save or import the fighters or battlekit list."
        )
    return (_save if action == "save" else _import)(request, campaign, membership, kind)


@login_required
@require_GET
def price_list_export(request, campaign_id: int, kind: str):
    campaign, _membership = get_campaign_for_user(request.user, campaign_id)
    fmt = request.GET.get("format", "csv")
    if fmt not in ("csv", "json") or kind not in PriceList.Kind.values:
        return HttpResponseBadRequest("format must be csv or json, the list fighters or battlekit.")
    version = request.GET.get("version")
    if version is not None and not version.isdigit():
        raise Http404("No such version.")
    shown = selectors.price_list(campaign=campaign, kind=kind, version=int(version) if version else None)
    if shown is None:
        raise Http404("Nothing saved yet: there is nothing to export.")
    text = rows_to_csv(kind, shown.rows) if fmt == "csv" else rows_to_json(kind, shown.rows)
    response = HttpResponse(text, content_type="text/csv" if fmt == "csv" else "application/json")
    response["Content-Disposition"] = f'attachment; filename="price-list-{kind}-v{shown.version}.{fmt}"'
    return response
