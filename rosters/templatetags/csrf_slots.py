"""`{% csrf_slots %}...{% endcsrf_slots %}`: a part of a page cached for everyone may hold forms, and no per-user
secret is ever cached. Inside, a form writes `{{ csrf_slot }}` where it would write `{% csrf_token %}`: the part is
rendered (or read from its cache) with a mark there, and the mark is replaced by this request's own token as the
part leaves the tag. The mark begins with "<", which an escaped value can never hold ("&lt;"), so nothing a user
typed can stand in for it. Inside another `csrf_slots`, the outer one fills the slots (so a part cached inside a
cached page holds marks, not tokens)."""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import SafeString

register = template.Library()

MARK = "<csrf-slot>"


class CsrfSlotsNode(template.Node):
    def __init__(self, nodelist):
        self.nodelist = nodelist

    def render(self, context):
        if (
            "csrf_slot" in context
        ):  # inside another one (a part that may also be rendered alone): it fills them
            return self.nodelist.render(context)
        with context.push(csrf_slot=SafeString(MARK)):
            html = self.nodelist.render(context)
        if MARK not in html:
            return html
        # Both halves are the template engine's own output (rendered and escaped as any part of a page), so the
        # result is as safe as they were.
        return SafeString(html.replace(MARK, CsrfTokenNode().render(context)))


@register.tag
def csrf_slots(parser, token):
    nodelist = parser.parse(("endcsrf_slots",))
    parser.delete_first_token()
    return CsrfSlotsNode(nodelist)
