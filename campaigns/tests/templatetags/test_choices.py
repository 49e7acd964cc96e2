"""`{{ choices|options }}`: option elements, escaped as the template loop they replace escaped them."""

from django.template import Context, Template
from django.utils.safestring import mark_safe

from campaigns.templatetags.choices import options


def test_each_pair_becomes_an_option_in_order():
    assert options([("arsenal", "the Arsenal"), (7, "Brother Anselm")]) == (
        '<option value="arsenal">the Arsenal</option><option value="7">Brother Anselm</option>'
    )


def test_values_and_labels_are_escaped_and_safe_strings_kept():
    html = options([('a"b', "<script>x</script> & co"), ("s", mark_safe("<b>kept</b>"))])
    assert html == (
        '<option value="a&quot;b">&lt;script&gt;x&lt;/script&gt; &amp; co</option>'
        '<option value="s"><b>kept</b></option>'
    )


def test_the_chosen_value_is_selected_compared_as_text():
    html = options([(1, "one"), (2, "two")], "2")
    assert html == '<option value="1">one</option><option value="2" selected>two</option>'
    assert "selected" not in options([(1, "one")], None)


def test_it_is_a_builtin_and_renders_the_same_as_the_loop_it_replaced():
    choices = [("arsenal", "the <Arsenal>"), ("3", "Odo & Marcus")]
    loop = Template(
        '{% for value, label in choices %}<option value="{{ value }}"{% if value == chosen %} selected{% endif %}>'
        "{{ label }}</option>{% endfor %}"
    )
    context = Context({"choices": choices, "chosen": "3"})
    assert Template("{{ choices|options:chosen }}").render(context) == loop.render(context)
