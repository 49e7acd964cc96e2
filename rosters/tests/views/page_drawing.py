"""What the tests of the pages kept whole under their digest (the roster, a fighter's card) share: a page drawn for
a browser seen for the first time, and the page with its CSRF tokens left out, to compare two drawings."""

import re

from django.utils.crypto import get_random_string

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def drawn(client, url: str) -> str:
    """`url` with a CSRF cookie of its own, as a browser loading it for the first time: the whole-page cache never
    answers it (config/page_cache.py keys a kept page on that cookie), so the view draws it."""
    client.cookies["csrftoken"] = get_random_string(32)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def without_tokens(html: str) -> str:
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", html)
