"""FastSelect (rosters/widgets.py) writes the same select Django's own widget would, in one pass."""

from django import forms

from rosters.widgets import FastSelect


class _Form(forms.Form):
    fighter = forms.ChoiceField(
        required=False,
        widget=FastSelect,
        choices=[
            ("", "Any fighter"),
            ("Iron <Sepulchre>", [("1", 'Brother "Anselm"'), ("2", "Pilgrim & Odo")]),
            ("Ash Tide", [("3", "Heretic Priest")]),
        ],
    )


def test_it_writes_groups_options_and_the_chosen_one_escaped():
    html = str(_Form(data={"fighter": "2"})["fighter"])
    assert html == (
        '<select id="id_fighter" name="fighter">'
        '<option value="">Any fighter</option>'
        '<optgroup label="Iron &lt;Sepulchre&gt;">'
        '<option value="1">Brother &quot;Anselm&quot;</option>'
        '<option value="2" selected>Pilgrim &amp; Odo</option>'
        "</optgroup>"
        '<optgroup label="Ash Tide"><option value="3">Heretic Priest</option></optgroup>'
        "</select>"
    )


def test_with_no_value_the_empty_choice_is_chosen():
    html = str(_Form()["fighter"])
    assert '<option value="" selected>Any fighter</option>' in html
    assert html.count(" selected") == 1
