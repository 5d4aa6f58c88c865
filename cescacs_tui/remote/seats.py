"""Who plays White, who plays Black, and who only watches: seats held by client identities.

A client names itself with an identity (``client`` in its hello): a random
string it keeps while it reconnects, or, over SSH, one derived from the key it
logged in with.  A seat belongs to the identity that took it, so the same
client reconnecting gets the same seat back.  When seats are *keyed* (SSH),
a seat stays its key's for good, even while its player is away; otherwise
(TCP, where anyone with the token is trusted) a seat whose player is away can
be taken over, which is how a player whose terminal was killed comes back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.pieces import Colour
from .protocol import LineRefused, Seat, SeatView, clean_name

__all__ = ["Seats"]


@dataclass
class _Holder:
    client: str
    name: str
    connected: bool = False


class Seats:
    """The two player seats of one game (watchers hold no seat)."""

    def __init__(self, *, keyed: bool) -> None:
        self.keyed = keyed
        self._holders: dict[Colour, _Holder | None] = {Colour.WHITE: None, Colour.BLACK: None}

    def holder_of(self, client: str) -> Colour | None:
        """The seat ``client`` holds, if any."""
        for colour, holder in self._holders.items():
            if holder is not None and holder.client == client:
                return colour
        return None

    def is_connected(self, colour: Colour) -> bool:
        holder = self._holders[colour]
        return holder is not None and holder.connected

    def name(self, colour: Colour) -> str:
        holder = self._holders[colour]
        return "" if holder is None else holder.name

    def choose(self, client: str, wanted: Seat | None) -> Seat:
        """The seat ``client`` would get asking for ``wanted`` (``None``: the first free seat, White first,
        else watching), changing nothing.

        Raises a fatal :class:`LineRefused` (``seat_taken``) when the seat
        asked for is someone else's.
        """
        held = self.holder_of(client) if client else None
        if held is not None and wanted in (None, Seat.of(held)):
            return Seat.of(held)
        if wanted is Seat.WATCH:
            return Seat.WATCH
        if held is not None:
            raise LineRefused(
                "seat_taken", f"you hold {Seat.of(held).label}: ask for that seat or to watch", fatal=True
            )
        if wanted is not None:
            colour = wanted.colour
            assert colour is not None
            if self._free(colour, client):
                return wanted
            raise LineRefused("seat_taken", self._why_taken(colour), fatal=True)
        for colour in (Colour.WHITE, Colour.BLACK):
            if self._holders[colour] is None:
                return Seat.of(colour)
        if not self.keyed:
            for colour in (Colour.WHITE, Colour.BLACK):
                if self._free(colour, client):
                    return Seat.of(colour)
        return Seat.WATCH

    def claim(self, client: str, wanted: Seat | None, name: str) -> Seat:
        """Seat ``client`` as :meth:`choose` says; the caller marks it connected with :meth:`arrive`."""
        seat = self.choose(client, wanted)
        colour = seat.colour
        if colour is not None and self.holder_of(client) != colour:
            self._holders[colour] = _Holder(client, name)
        return seat

    def _free(self, colour: Colour, client: str) -> bool:
        holder = self._holders[colour]
        return holder is None or (not self.keyed and not holder.connected and bool(client))

    def _why_taken(self, colour: Colour) -> str:
        holder = self._holders[colour]
        assert holder is not None
        who = f"{Seat.of(colour).label} is taken by {holder.name or 'another player'}"
        return who if holder.connected else f"{who}, who is away: the seat is kept for them"

    def arrive(self, colour: Colour, name: str) -> None:
        """The holder of ``colour`` is connected (under ``name``, if they gave one)."""
        holder = self._holders[colour]
        assert holder is not None
        holder.connected = True
        if name and name != "?":
            holder.name = name

    def leave(self, colour: Colour) -> None:
        holder = self._holders[colour]
        if holder is not None:
            holder.connected = False

    def view(self, colour: Colour) -> SeatView:
        holder = self._holders[colour]
        return SeatView() if holder is None else SeatView(holder.name, True, holder.connected)

    # --- kept with the game, so a restarted coordinator gives each player their seat back ------------

    def to_options(self) -> dict[str, Any]:
        return {
            Seat.of(colour).value: {"client": holder.client, "name": holder.name}
            for colour, holder in self._holders.items()
            if holder is not None
        }

    def restore(self, options: Mapping[str, Any]) -> None:
        """Seats as :meth:`to_options` wrote them (anything malformed is left out: the seat is free)."""
        for colour in (Colour.WHITE, Colour.BLACK):
            entry = options.get(Seat.of(colour).value)
            if isinstance(entry, dict) and isinstance(entry.get("client"), str) and entry["client"]:
                name = entry.get("name")
                self._holders[colour] = _Holder(entry["client"], clean_name(name if isinstance(name, str) else ""))
