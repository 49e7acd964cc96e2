"""Combat's forms, one module per page (the tracker, the post-game wizard)."""
