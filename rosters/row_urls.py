"""Addresses of many rows at the cost of one: each URL pattern is reversed once, with a placeholder id, and each
row's id is put in its place.

A roster draws three links per fighter (card, XP, edit): `reverse()` for each of 200 rows was a measurable part
of drawing them. The address is the one `reverse(name, args=[id])` gives, byte for byte
(rosters/tests/test_row_urls.py holds it to it).
"""

from collections.abc import Callable

from django.urls import reverse

# An id no row has and no other part of an address spells: its digits are replaced by the row's id.
PLACEHOLDER = 9_081_726_354_109_283


def url_for_ids(name: str) -> Callable[[int], str]:
    """A function of an id giving `reverse(name, args=[id])`, for a pattern that takes one integer id.

    Reverse it within the request that uses it (the script prefix is the request's)."""
    head, tail = reverse(name, args=[PLACEHOLDER]).split(str(PLACEHOLDER))
    return lambda pk: f"{head}{pk}{tail}"
