"""Form widgets shared by the pages that list a whole campaign's fighters and games."""

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe


class FastSelect(forms.Select):
    """A select written in one pass. Django renders every option through its widget templates, which costs a
    millisecond per dozen options; a campaign's fighters number in the hundreds and the feed has a 50 ms aim."""

    def render(self, name, value, attrs=None, renderer=None):
        final = {**self.build_attrs(self.attrs, attrs), "name": name}
        chosen = "" if value is None else str(value)

        def options(choices) -> str:
            return format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                ((v, mark_safe(" selected") if str(v) == chosen else "", label) for v, label in choices),
            )

        parts = []
        for group, choices in self.choices:
            if isinstance(choices, list | tuple):
                parts.append(format_html('<optgroup label="{}">{}</optgroup>', group, options(choices)))
            else:
                parts.append(options([(group, choices)]))
        return format_html("<select{}>{}</select>", flatatt(final), mark_safe("".join(parts)))  # noqa: S308
