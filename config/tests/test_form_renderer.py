"""config/forms.py: Django's `<input>` widgets written in Python, to the character what their templates write."""

import pytest
from django import forms
from django.forms.renderers import TemplatesSetting, get_default_renderer
from django.utils.safestring import mark_safe

from config.forms import LedgerFormRenderer

WIDGETS = [
    forms.TextInput(attrs={"autofocus": True, "hidden": False, "placeholder": 'say "<&>"', "maxlength": 0}),
    forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 7}),
    forms.CheckboxInput(),
    forms.HiddenInput(),
    forms.EmailInput(),
    forms.PasswordInput(render_value=True),
    forms.DateInput(),
    forms.URLInput(),
]
VALUES = [None, "", 0, 3, 'a "quoted" <b>', mark_safe("<b>safe</b>"), True, False, (1, 2)]


def test_the_project_renders_forms_with_its_renderer():
    assert isinstance(get_default_renderer(), LedgerFormRenderer)


@pytest.mark.parametrize("widget", WIDGETS, ids=lambda widget: type(widget).__name__)
def test_an_input_is_written_as_djangos_template_writes_it(widget):
    ours, templates = LedgerFormRenderer(), TemplatesSetting()
    for value in VALUES:
        for name in ("deeds_12", 'odd"name'):
            context = widget.get_context(name, value, {"id": f"id_{name}", "required": True})
            expected = templates.render(widget.template_name, context)
            assert ours.render(widget.template_name, context) == expected


def test_a_bound_field_renders_the_same_through_either_renderer():
    class Deeds(forms.Form):
        took_part = forms.BooleanField(required=False, initial=True, disabled=True)
        deeds = forms.IntegerField(
            min_value=0, max_value=3, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
        )

    bound = Deeds({"deeds": "9"}, renderer=LedgerFormRenderer())
    plain = Deeds({"deeds": "9"}, renderer=TemplatesSetting())
    assert bound.is_valid() is plain.is_valid() is False
    for name in ("took_part", "deeds"):
        assert str(bound[name]) == str(plain[name])
