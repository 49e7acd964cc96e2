"""The roster's Add form (rosters/forms/battlekit.py): its unbound fields kept drawn per process under the
campaign's words and price list are the text the page's partials draw, and a change of either draws it anew."""

from campaigns.terms import terms_for
from rosters.forms.battlekit import ItemForm, _drawn

LANCE = {"name": "Lance", "cost": 10, "keywords": ["HEAVY"], "removable": True}


def form(listed, terms=None, data=None):
    return ItemForm(
        data,
        holders=[],
        terms=terms or terms_for("trench_crusade"),
        with_holder=False,
        buying=True,
        listed=listed,
    )


def test_the_kept_parts_are_the_parts_drawn():
    for listed in ([], [LANCE], [LANCE, {**LANCE, "name": "Pike <long>", "cost": 7}]):
        for part, kept in (("add-item-head", "kept_head"), ("add-item-tail", "kept_tail")):
            assert getattr(form(listed), kept) == _drawn(part, form(listed))
            assert getattr(form(listed), kept) == getattr(form(listed), kept)  # kept: the same text again


def test_a_new_price_list_or_other_words_draw_it_anew():
    assert "Lance (10 ducats)" in form([LANCE]).kept_head
    assert "Lance (12 ducats)" in form([{**LANCE, "cost": 12}]).kept_head
    assert "Lance (10 caps)" in form([LANCE], terms=terms_for("fallout_factions")).kept_head
    assert "from the Strongbox" in form([LANCE]).kept_tail


def test_a_refused_form_shows_its_own_values():
    refused = form([LANCE], data={"name": "", "cost": "x", "listed": ""})
    assert not refused.is_valid()
    assert 'value="x"' in refused.kept_tail
    assert "errorlist" in refused.kept_head + refused.kept_tail
