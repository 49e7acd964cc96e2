"""The roster page's read on every request: the access check, the warband and its digest in one statement
(`roster_for_reader`), for rosters/views/warbands.py through rosters/access.py."""

from functools import cache
from itertools import accumulate

from django.contrib.auth import get_user_model
from django.db import connection

from campaigns.models import Campaign, Membership
from campaigns.plain_rows import part
from rosters.models import Warband
from rosters.selectors.roster import ROSTER_DIGEST_COLUMNS, ROSTER_FROM, Roster, digest_read


def _reader_tables() -> tuple[tuple[type, str], ...]:
    return ((Warband, "w"), (Campaign, "c"), (get_user_model(), "o"), (Membership, "m"))


@cache
def _reader_sql() -> str:
    warband, campaign, owner, member = (part(*table) for table in _reader_tables())
    # Only the models' own column names go into the text; the ids are parameters.
    return (
        f"SELECT {warband.columns}, {campaign.columns}, {owner.columns}, {member.columns}, {ROSTER_DIGEST_COLUMNS}{ROSTER_FROM}"
        " LEFT JOIN campaigns_membership m ON m.campaign_id = w.campaign_id AND m.user_id = %(reader)s"
        " WHERE w.id = %(warband)s"
    )


def roster_for_reader(
    *, warband_id: int, reader_id: int, all_rows: bool = False
) -> tuple[Roster, Membership | None] | None:
    """The roster page of warband `warband_id` as `warband_roster` reads it (the warband with its campaign and
    owner, its digest and headline values) and the reader's membership of its campaign (None for an outsider), in
    one statement that reads each row once; None when there is no such warband. The page read on every request,
    where the ORM building the three statements this replaces cost more than PostgreSQL running them."""
    with connection.cursor() as cursor:
        cursor.execute(_reader_sql(), {"warband": warband_id, "reader": reader_id})
        row = cursor.fetchone()
    if row is None:
        return None
    warband_read, campaign_read, owner_read, member_read = (part(*table) for table in _reader_tables())
    cut = list(accumulate(len(read.names) for read in (warband_read, campaign_read, owner_read, member_read)))
    warband = warband_read.load(row[: cut[0]])
    warband.campaign = campaign_read.load(row[cut[0] : cut[1]])
    warband.owner = owner_read.load(row[cut[1] : cut[2]])
    membership = None
    if row[cut[2]] is not None:  # the membership's id: None for an outsider
        membership = member_read.load(row[cut[2] : cut[3]])
        membership.campaign = warband.campaign
    digest, summary = digest_read(row[cut[3] :])
    return Roster(warband=warband, digest=digest, summary=summary, all_rows=all_rows), membership
