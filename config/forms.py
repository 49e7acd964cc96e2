"""The project's form renderer: every field and every `{{ form }}` through one template each (docs/architecture.md).

Templates write `{{ form.name.as_field_group }}` and get the label, help text, errors and widget inside one
`<div class="field">`, marked `has-error` when the field was refused, instead of a wrapper written by hand in
every template.
"""

from django.forms.renderers import TemplatesSetting


class LedgerFormRenderer(TemplatesSetting):
    form_template_name = "forms/form.html"
    field_template_name = "forms/field.html"
