"""Combat's writes, one module per flow: `tracker` (the live board), `post_game` (the wizard).

The one bridge between the rules engine and the database (docs/architecture.md): callers import the module they need.
"""
