"""The project's form renderer: every field and every `{{ form }}` through one template each (docs/architecture.md).

Templates write `{{ form.name.as_field_group }}` and get the label, help text, errors and widget inside one
`<div class="field">`, marked `has-error` when the field was refused, instead of a wrapper written by hand in
every template.

Django's own `<input>` widgets (text, number, checkbox, hidden...) are written here in Python, to the character
what their templates (`django/forms/widgets/input.html` and `attrs.html`) write: a page with a row of inputs per
fighter (the post-game's Experience, its Out of Action list) spent a quarter of its time in the template engine
for them. A project template that overrides one of them is used as written (`_stock`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import django.forms
from django.forms.renderers import TemplatesSetting
from django.utils.html import escape
from django.utils.safestring import SafeData, mark_safe

WIDGETS = "django/forms/widgets/"
# The widgets whose template is only `{% include "django/forms/widgets/input.html" %}`.
INPUT_WIDGETS = frozenset(
    f"{WIDGETS}{name}.html"
    for name in (
        "checkbox",
        "color",
        "date",
        "datetime",
        "email",
        "hidden",
        "input",
        "number",
        "password",
        "search",
        "tel",
        "text",
        "time",
        "url",
    )
)
DJANGO_TEMPLATES = Path(django.forms.__file__).resolve().parent / "templates"


def _text(value) -> str:
    """`{{ value|stringformat:'s' }}` with autoescape: the value as text, escaped unless it is already safe."""
    text = "%s" % (str(value) if isinstance(value, tuple) else value)  # noqa: UP031 - the filter's own formatting
    return text if isinstance(value, SafeData) else escape(text)


def render_input(widget: dict) -> str:
    """`django/forms/widgets/input.html` with its `attrs.html`, as the template engine writes them."""
    parts = [f'<input type="{escape(widget["type"])}" name="{escape(widget["name"])}"']
    if widget["value"] is not None:
        parts.append(f' value="{_text(widget["value"])}"')
    for name, value in widget["attrs"].items():
        if value is False:
            continue
        parts.append(f" {escape(name)}" if value is True else f' {escape(name)}="{_text(value)}"')
    parts.append(">")
    return mark_safe("".join(parts))  # noqa: S308 - every value escaped above


class LedgerFormRenderer(TemplatesSetting):
    form_template_name = "forms/form.html"
    field_template_name = "forms/field.html"

    def render(self, template_name, context, request=None):
        if template_name in INPUT_WIDGETS and self._stock(template_name):
            return render_input(context["widget"])
        return super().render(template_name, context, request)

    @cache  # noqa: B019 - one renderer per process (Django keeps it), a handful of names
    def _stock(self, template_name: str) -> bool:
        """Whether the widget's template, and the two it includes, are Django's own files (none overridden)."""
        names = {template_name, f"{WIDGETS}input.html", f"{WIDGETS}attrs.html"}
        origins = (Path(self.get_template(name).origin.name).resolve() for name in names)
        return all(origin.is_relative_to(DJANGO_TEMPLATES) for origin in origins)
