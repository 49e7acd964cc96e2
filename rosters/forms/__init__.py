"""Forms for the roster and game pages, one module per resource: they parse and check input; the services write.

Every limit a form checks comes from the model field it fills (rosters/forms/common.py, rosters/limits.py).
"""
