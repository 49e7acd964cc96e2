"""What the money steps' pages share: the purchase and sale forms built from the step's read
and the campaign's price lists, and a posted purchase, sale or take-back handed to its service. A refusal is
(action, reason), shown beside the form it came from at 422, nothing changed."""

from __future__ import annotations

from django.shortcuts import redirect

from combat.forms import post_game_money as forms
from combat.models import PostGameTrade
from combat.services.post_game import reinforcements as reinforcements_service
from combat.services.post_game import trade as trade_service
from combat.services.post_game.attempt import PostGameError
from combat.views.post_game.common import UNPROCESSABLE, page_context, step_url
from rosters.selectors import price_lists, roster

PURCHASES = (PostGameTrade.Kind.RECRUIT, PostGameTrade.Kind.BUY)
LISTS = {PostGameTrade.Kind.RECRUIT: "fighters", PostGameTrade.Kind.BUY: "battlekit"}


def purchase_forms(state, *, data=None, posted: str | None = None) -> dict:
    """The recruit and buy forms (the one posted bound to `data`), with the price lists' rows when kept."""
    holders = state.trade.holders if state.trade is not None else []
    return {
        f"{kind}_form": forms.PurchaseForm(
            data if posted == kind else None,
            kind=kind,
            terms=state.terms,
            listed=price_lists.listed(campaign=state.campaign, kind=LISTS[kind]),
            holders=holders,
        )
        for kind in PURCHASES
    }


def posted_purchase_form(player, kind: str, data) -> forms.PurchaseForm:
    """A recruit or a purchase parsed without reading the post-game: any active fighter may be named as its holder
    here, and the service, which reads the post-game under its locks, refuses one this post-game takes off the
    roster (a write that fits then costs one read of the post-game, not two)."""
    return forms.PurchaseForm(
        data,
        kind=kind,
        terms=player.game.campaign.terms,
        listed=price_lists.listed(campaign=player.game.campaign, kind=LISTS[kind]),
        holders=roster.holders_for(warband=player.warband),
    )


def sale_form(state, *, data=None):
    return forms.SaleForm(data, sellable=state.trade.sellable if state.trade else (), terms=state.terms)


def post_trade(request, player, state, action: str, *, reinforcements: bool) -> None:
    """One purchase, sale or take-back posted; raises `PostGameError` with the reason (the form's or the
    service's). `state` None: a recruit, a purchase or a take-back, which need no read of the post-game here."""
    if action == "remove":
        try:
            trade_id = int(request.POST.get("trade", ""))
        except ValueError:
            raise PostGameError("That purchase or sale is not planned in this post-game.") from None
        trade_service.post_game_trade_remove(player=player, by=request.user, trade_id=trade_id)
        return
    if action == "sell" and not reinforcements:
        form = sale_form(state, data=request.POST)
    elif action in PURCHASES and state is None:
        form = posted_purchase_form(player, action, request.POST)
    elif action in PURCHASES:
        form = purchase_forms(state, data=request.POST, posted=action)[f"{action}_form"]
    else:
        raise PostGameError("That is not one of this step's answers.")
    if not form.is_valid():
        raise PostGameError(forms.form_reason(form))
    add = (
        reinforcements_service.post_game_reinforcement_add
        if reinforcements
        else trade_service.post_game_trade_add
    )
    add(player=player, by=request.user, trade=form.trade())


def open_state(request, player, membership, can_write: bool, *, step: str):
    """The post-game being planned, for a money step's answer; refused once it is applied."""
    state = page_context(request, player, membership, can_write, step=step)["state"]
    if state.applied:
        raise PostGameError("This post-game is applied: revert it first to change it.")
    return state


def answer_step(request, player, membership, can_write: bool, *, step: str, view: str, page, act):
    """A money step's POST (Reinforcements, Hire & Trade, Use Glory). `act(action)` plans the answer, or returns
    the response of an answer that leaves the step; a `PostGameError` refuses it: the page again at 422 with the
    reason beside what was typed, nothing changed. Otherwise htmx gets the step again and a plain form goes back
    to it (POST, redirect, GET)."""
    action = request.POST.get("action", "")
    try:
        response = act(action)
    except PostGameError as error:
        return page(
            request, player, membership, can_write, status=UNPROCESSABLE, refused=(action, str(error))
        )
    if response is not None:
        return response
    if request.htmx:
        return page(request, player, membership, can_write)
    return redirect(f"{step_url(view, player)}#{step}-step")
