"""Combat pages: one module per page (the tracker, the post-game wizard, the dice log)."""
