"""What the history tests share: the sentences of a page of the feed."""

from rosters.history.entries import HistoryFilter
from rosters.history.feed import history_page


def sentences(campaign, **filters) -> list[str]:
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, **filters))
    return [change.sentence for entry in page.entries for change in entry.changes]
