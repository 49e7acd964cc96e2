"""Saving a campaign's data (combat/models/campaign_data.py): each save a new version, never an edit in place.

The engine says what rows make a skill chart, a Location table, a list of fighter types or Patron skills
(`combat/campaign_data_io.checked_rows` asks it, and adds the models' limits); rows it refuses raise
`CampaignDataError` with every problem in plain words, and nothing is saved. The campaign row is locked for the
save, so two organisers saving at once get versions n and n+1, never two of n.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaigns.history_context import history_context
from campaigns.models import Campaign
from combat.campaign_data_io import CampaignDataError, checked_rows, rows_from_text
from combat.demo_campaign_data import demo_rows
from combat.models.campaign_data import NOTE_LENGTH, PATRON_SKILLS, CampaignDataSet, campaign_kinds
from combat.selectors.campaign_data import campaign_warbands, kind_is_known, kind_title

SAVE = "campaign_data.save"


def _check_kind(campaign: Campaign, kind: str) -> None:
    if not kind_is_known(campaign=campaign, kind=kind):
        raise CampaignDataError([f"The campaign keeps no data called {kind!r}."])


@transaction.atomic
def campaign_data_save(
    *, campaign: Campaign, kind: str, rows: Any, by, note: str = ""
) -> tuple[CampaignDataSet, bool]:
    """Save `rows` as the next version of `kind`; (the version, whether it is new). Rows equal to the newest
    version's save nothing (no empty version in the list). Refused rows raise `CampaignDataError`."""
    _check_kind(campaign, kind)
    clean = checked_rows(kind, rows)
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise CampaignDataError([f"The note is longer than {NOTE_LENGTH} characters."])
    Campaign.objects.select_for_update().only("pk").get(pk=campaign.pk)
    newest = CampaignDataSet.objects.filter(campaign=campaign, kind=kind).order_by("-version").first()
    if newest is not None and newest.rows == clean:
        return newest, False
    version = newest.version + 1 if newest else 1
    words = kind_title(campaign=campaign, kind=kind)
    reason = note or f"{by} saved {words}, v{version} ({len(clean)} rows)"
    data_set = CampaignDataSet(
        campaign=campaign, kind=kind, version=version, rows=clean, created_by=by, note=note
    )
    data_set.full_clean()
    with history_context(by=by, action=SAVE, reason=reason, campaign=campaign.pk):
        data_set.save()
    return data_set, True


def campaign_data_import(
    *, campaign: Campaign, kind: str, text: str | bytes, fmt: str, by, note: str | None = None
) -> tuple[CampaignDataSet, bool]:
    """Save the rows of a CSV or JSON text (an upload, a paste, the editor's CSV) as the next version of `kind`;
    without a `note` the version says it was imported."""
    _check_kind(campaign, kind)
    rows = rows_from_text(kind, text, fmt=fmt)
    return campaign_data_save(
        campaign=campaign, kind=kind, rows=rows, by=by, note="imported" if note is None else note
    )


@transaction.atomic
def campaign_data_copy_demo(
    *, campaign: Campaign, by, kinds: list[str] | None = None
) -> list[CampaignDataSet]:
    """Save the made-up demo set (combat/demo_campaign_data.py) as the next version of each kind asked for,
    or, with `kinds` None, of every kind the campaign has not saved yet (every warband's Patron skills too)."""
    if kinds is None:
        saved = set(CampaignDataSet.objects.filter(campaign=campaign).values_list("kind", flat=True))
        every = campaign_kinds() + [f"{PATRON_SKILLS}:{pk}" for pk in campaign_warbands(campaign=campaign)]
        kinds = [kind for kind in every if kind not in saved]
    made = []
    for kind in kinds:
        data_set, new = campaign_data_save(
            campaign=campaign,
            kind=kind,
            rows=demo_rows(kind, campaign.preset),
            by=by,
            note="copied from the demo set",
        )
        if new:
            made.append(data_set)
    return made
