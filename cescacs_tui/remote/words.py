"""What the coordinator tells a client, in the words of the client's own language.

The coordinator runs in the host's language, but every client reads its own:
a host in Catalan and a guest in Spanish each read their own sentences.  So
what crosses the network is data, never prose to show: a snapshot's
:class:`~cescacs_tui.remote.protocol.Event` (who did what) and an error's
``code`` are worded here, on the client, in the interface's language; the
coordinator's own words (``said``, an error's ``reason``) are only shown for
what this client cannot word itself (an event or a code of a later version).
The protocol's words (the codes, the kinds, the seats) stay English.
"""

from __future__ import annotations

from typing import Final

from ..core.game import Game
from ..i18n import N_, _, ngettext
from ..session.terms import capitalised, side, side_label, termination
from .protocol import Event, EventKind

__all__ = ["ending_words", "event_words", "refusal_words"]

_SAID: Final[dict[EventKind, str]] = {
    EventKind.OFFERS_DRAW: N_("{side} offers a draw"),
    EventKind.CLAIMS_DRAW: N_("{side} claims a draw"),
    EventKind.RESIGNS: N_("{side} resigns"),
    EventKind.ASKS_TAKEBACK: N_("{side} asks to take back {moves}"),
    EventKind.ASKS_NEW_GAME: N_("{side} asks for a new game"),
    EventKind.ACCEPTS_DRAW: N_("{side} accepts the draw"),
    EventKind.DECLINES_DRAW: N_("{side} declines the draw"),
    EventKind.DECLINES_TAKEBACK: N_("{side} declines the takeback"),
    EventKind.DECLINES_NEW_GAME: N_("{side} declines the new game"),
    EventKind.NEW_GAME: N_("a new game begins"),
    EventKind.FLAG_FALL: N_("Flag fall"),
}
"""The events said in one sentence about one side (``{side}``: "les blanques")."""

REFUSALS: Final[dict[str, str]] = {
    "auth": N_("wrong token: ask the host for the join command"),
    "version": N_("the coordinator speaks another version of the protocol: use the same cescacs as the host"),
    "full": N_("this game has no room for another connection"),
    "seat_taken": N_("that seat is someone else's"),
    "replaced": N_("your seat was taken over by a newer connection"),
    "closing": N_("the coordinator is closing; the game is saved"),
    "not_a_player": N_("you are watching: only the players can do that"),
    "not_your_turn": N_("it is not your turn"),
    "stale": N_("the game changed before your move arrived: it was not played"),
    "illegal_move": N_("that move is not legal here"),
    "not_your_offer": N_("a draw is offered after your own move: make it, then offer"),
    "nothing": N_("you have no move to take back"),
    "game_on": N_("the game is not over: resign or agree a draw first"),
    "no_request": N_("there is no request for you to answer"),
    "pending": N_("a request is waiting for an answer"),
    "game_over": N_("the game is over"),
    "bad_update": N_("the coordinator sent something this client cannot read"),
    "flood": N_("too many lines, too fast: the coordinator closed the connection"),
    "rate_limited": N_("too many lines: this one was ignored"),
    "hello_expected": N_("the coordinator expected a hello first"),
    "too_long": N_("that line was too long: it was ignored"),
    "internal": N_("the coordinator could not handle that"),
}
"""What each error code of the protocol means, for the player (``docs/remote-protocol.md``)."""


def event_words(event: Event) -> str:
    """``event`` in a sentence of the interface's language ("Les negres han jugat NG25-L17"); one that starts with
    a side starts with a capital, one that starts with a player's name keeps the name as it was given."""
    colour = event.colour
    kind = event.kind
    if kind is EventKind.JOINED:
        name = event.name or _("a watcher")
        if colour is None:
            return _("{name} is watching").format(name=name)
        return _("{name} plays {side}").format(name=name, side=side(colour))
    if kind in (EventKind.NEW_GAME, EventKind.FLAG_FALL):
        return _(_SAID[kind])
    if colour is None:  # every other event is about a side: one without is not worded (``said`` is shown)
        return ""
    if kind is EventKind.LEFT:
        said = _("{name} ({side}) left: the seat is kept for them")
        return said.format(name=event.name or "?", side=side_label(colour))
    if kind is EventKind.PLAYED:
        said = _("{side} played {moves} and offers a draw") if event.draw else _("{side} played {moves}")
        return capitalised(said.format(side=side(colour), moves=event.moves))
    if kind is EventKind.TOOK_BACK:
        said = ngettext(
            "{side} agrees: {other} took back one half-move",
            "{side} agrees: {other} took back {count} half-moves",
            event.count,
        )
        return capitalised(said.format(side=side(colour), other=side(colour.opponent), count=event.count))
    return capitalised(_(_SAID[kind]).format(side=side(colour), moves=event.moves))


def ending_words(said: str, game: Game) -> str:
    """``said``, and how the game ended if it is over and ``said`` does not already say so."""
    if not game.is_over:
        return said
    reason = termination(game)
    ending = f"{game.result}: {reason}"
    if not said:
        return ending
    return said if reason.lower() in said.lower() else f"{said}. {ending}"


def refusal_words(code: str, reason: str) -> str:
    """Why the coordinator refused, in the interface's language; its own ``reason`` for a code this client does
    not know (a later version's), or for ``refused`` (the game's own reason, in the coordinator's language)."""
    if code in REFUSALS:
        return _(REFUSALS[code])
    if reason:
        return _("the coordinator refused that: {reason}").format(reason=reason)
    return _("the coordinator refused that")
