"""What a campaign write tells the layers above campaigns, which campaigns may not import (tests/test_architecture.py).

Two caches sit above it and must forget what a write made stale, once the write commits: the page cache's tokens
(config/page_versions.py, the site's) and the tracker poll's remembered readers (combat/access_cache.py, combat's).
Each listens from its app's `ready()`; campaigns, and rosters above it, only say what happened:

- `campaign_written(campaign=, game=, by=, action=)`: a history context closed, or learnt the id of the campaign or
  game it wrote (campaigns/history_context.py); `campaign` and `game` are ids or None, `by` the acting user's id or
  None, `action` the context's action ("tracker.damage") or None when it is not known.
- `member_removed(campaign_id=, user_id=)`: a member was taken out of a campaign (campaigns/services/members.py).
- `game_deleted(game_id=)`: a game is being deleted, in the deleting transaction (rosters/services/games.py).

Every listener acts after the commit (`transaction.on_commit`), so a write that rolls back tells no one anything.
"""

from django.dispatch import Signal

campaign_written = Signal()
member_removed = Signal()
game_deleted = Signal()
