"""What a campaign write tells the layers above campaigns, which campaigns may not import (tests/test_architecture.py).

The caches above it (the page cache's tokens and the tracker poll's remembered readers) must forget what a write
made stale, once the write commits. One module owns them all, config/page_versions.py, connected from config's
`ready()`; campaigns, and rosters and combat above it, only say what happened, and only from the history context
every service writes under, so no service tells a cache anything by hand:

- `campaign_written(campaign=, game=, by=, action=)`: a history context closed, or learnt the id of the campaign or
  game it wrote (campaigns/history_context.py); `campaign` and `game` are ids or None, `by` the acting user's id or
  None, `action` the context's action ("tracker.damage") or None when it is not known.

Every listener acts after the commit (`transaction.on_commit`), so a write that rolls back tells no one anything.
"""

from django.dispatch import Signal

campaign_written = Signal()
