"""Static files as production serves them: the project's own CSS and JavaScript minified, then hashed
and pre-compressed with brotli and gzip by WhiteNoise.

The sources under static/ stay commented and readable (`make run` and the tests serve them as they are); only
`collectstatic` writes the minified copies. Their comments are most of what a phone would otherwise download
(ledger.css: 8.4 KB brotli with them, 5.8 KB without), and every first load must stay under 35 KB.

Minification happens in `_save`, which every write of collectstatic goes through (the plain copy and the hashed
one, the latter after the CSS's `url()` references are rewritten), so the file WhiteNoise compresses and the
manifest names are both the minified one. A file whose name says it is minified already (`htmx.min.js`) is kept
byte for byte.
"""

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage


def minifies(name: str) -> bool:
    """Whether `name` is a stylesheet or a script of the project's own, not one minified already."""
    return name.endswith((".css", ".js")) and ".min." not in name


def minified(name: str, text: str) -> str:
    """`text` minified if `minifies(name)`, else `text` unchanged."""
    if not minifies(name):
        return text
    return rcssmin.cssmin(text) if name.endswith(".css") else rjsmin.jsmin(text)


class MinifiedStaticStorage(CompressedManifestStaticFilesStorage):
    def _save(self, name, content):
        if minifies(name):
            content.seek(0)
            text = content.read()
            text = text.decode("utf-8") if isinstance(text, bytes) else text
            content = ContentFile(minified(name, text).encode("utf-8"))
        return super()._save(name, content)
