"""The line protocol between a coordinator and its clients: JSON objects, one a line (``docs/remote-protocol.md``).

Everything that crosses the network is checked here, on both sides: a line
too long, not UTF-8, not a JSON object, holding a string that is not Unicode
text (a lone surrogate such as ``"\\ud800"``) or a number that is not finite,
of an unknown type or with a field of the wrong type raises
:class:`LineRefused` with a code and a reason, which the coordinator sends
back as an ``error`` line.  Nothing a peer sends is trusted further than this
module lets it through: names lose their control characters, the token, the
identity and the move may hold none, strings have a length cap, numbers must
be finite and whole numbers bounded.

The coordinator tells its clients everything with one message, ``state``: a
full :class:`Snapshot` (the game as CTL-PGN, the clocks, the seats, any open
offer or request), so a client that missed an update, or reconnects, is
right again with the next one.
"""

from __future__ import annotations

import json
import math
import re
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ..core.pieces import Colour
from ..core.safe_text import printable

__all__ = [
    "MAX_REQUEST_BYTES",
    "MAX_UPDATE_BYTES",
    "PROTOCOL_VERSION",
    "Answer",
    "ClockTimes",
    "Event",
    "EventKind",
    "Hello",
    "LineBuffer",
    "LineRefused",
    "MoveRequest",
    "Plain",
    "RateLimiter",
    "Request",
    "Seat",
    "SeatView",
    "Snapshot",
    "clean_name",
    "colour_name",
    "encode",
    "parse_colour",
    "parse_message",
    "parse_request",
]

PROTOCOL_VERSION: Final = 1
"""Bumped whenever a change would make an older peer misread a message."""

MAX_REQUEST_BYTES: Final = 4096
"""The longest line a client may send (a move or a hello is under 300 bytes)."""

MAX_UPDATE_BYTES: Final = 4 * 1024 * 1024
"""The longest line a coordinator may send: a whole game's record (the record files' own limit)."""

MAX_NAME: Final = 24
"""A player's name is cut to this many characters."""

_MAX_FIELD: Final = 256
"""No string field of a request may be longer (a token, a client id, a name)."""

MAX_MOVE: Final = 32
"""A move in the canonical form is under 20 characters (``KRK-HIO``, ``F26-F28=D``)."""


class LineRefused(Exception):
    """A line refused: ``code`` for programs (see the protocol document), ``reason`` for people.

    ``fatal`` errors end the connection (a wrong token, a seat taken);
    the others only refuse the one line.
    """

    def __init__(self, code: str, reason: str, *, fatal: bool = False) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.fatal = fatal

    def message(self) -> dict[str, Any]:
        """The ``error`` line that tells the peer."""
        return {"type": "error", "code": self.code, "reason": self.reason, "fatal": self.fatal}


class Seat(StrEnum):
    """Where a client sits: a player of one side, or a watcher."""

    WHITE = "white"
    BLACK = "black"
    WATCH = "watch"

    @property
    def colour(self) -> Colour | None:
        return {Seat.WHITE: Colour.WHITE, Seat.BLACK: Colour.BLACK}.get(self)

    @classmethod
    def of(cls, colour: Colour) -> Seat:
        return cls.WHITE if colour is Colour.WHITE else cls.BLACK

    @property
    def label(self) -> str:
        """``White``, ``Black``, or ``a watcher``."""
        return "a watcher" if self is Seat.WATCH else self.value.capitalize()


def colour_name(colour: Colour | None) -> str | None:
    return None if colour is None else Seat.of(colour).value


def parse_colour(value: object, what: str) -> Colour | None:
    """``"white"``, ``"black"`` or ``null`` as a colour (a :class:`LineRefused` for anything else)."""
    if value is None:
        return None
    if value == "white":
        return Colour.WHITE
    if value == "black":
        return Colour.BLACK
    raise LineRefused("bad_field", f'{what} must be "white", "black" or null')


def clean_name(text: str, *, default: str = "?") -> str:
    """A name a peer gave, safe to show: no control or format characters, spaces collapsed, at most 24 characters."""
    spaced = "".join(ch if unicodedata.category(ch)[0] not in "CZ" or ch == " " else " " for ch in text)
    name = " ".join(spaced.split())[:MAX_NAME].strip()
    return name or default


def encode(message: Mapping[str, Any]) -> bytes:
    """One line of the protocol: compact JSON, non-ASCII kept (UTF-8), ``\\n`` at the end."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode() + b"\n"


def parse_message(line: bytes, limit: int) -> dict[str, Any]:
    """A line as a JSON object with a string ``type``: the checks both sides make before anything else.

    Every string in it, keys too, is Unicode text (JSON's ``\\ud800`` escapes
    can name a lone surrogate, which no UTF-8 encoder accepts: it would break
    the first answer that quotes it), and every number is finite.
    """
    if len(line) > limit:
        raise LineRefused("too_long", f"a line may hold at most {limit} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LineRefused("bad_json", f"not UTF-8 text (byte {error.start})") from None
    try:
        message = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, RecursionError) as error:
        raise LineRefused("bad_json", printable(f"not JSON: {error}"[:200])) from None
    if not isinstance(message, dict):
        raise LineRefused("bad_json", "a line must be a JSON object")
    _check_strings(message)
    kind = message.get("type")
    if not isinstance(kind, str):
        raise LineRefused("bad_json", 'a line must have a string "type"')
    return message


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]} is not a finite number")
    return number


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _check_strings(value: object) -> None:
    """Refuse a message holding a lone surrogate anywhere (its cost is linear in the line, which is capped)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item) is not None:
                raise LineRefused("bad_json", "a string holds a lone surrogate: it is not Unicode text")
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


# --- requests: what clients send ------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """The first line of every connection: who is asking, for which seat, with which token."""

    protocol: int
    token: str
    seat: Seat | None
    """``None``: the first free seat, White first, else watching."""
    name: str
    client: str
    """The client's identity (random, kept by a client while it reconnects; a key's, over SSH)."""
    probe: bool = False
    """Only ask: the answer says the seat this hello would get (or why not), and the connection ends."""


@dataclass(frozen=True)
class MoveRequest:
    """Play ``move`` (the canonical coordinate form) in the position after ``ply`` half-moves."""

    move: str
    ply: int
    draw: bool = False
    """Offer a draw with the move."""


@dataclass(frozen=True)
class Answer:
    """Accept or decline the opponent's draw offer, takeback request or new-game request."""

    to: str
    accept: bool


@dataclass(frozen=True)
class Plain:
    """A request with no fields: ``takeback``, ``offer_draw``, ``claim_draw``, ``resign``, ``new_game``, ``ping``,
    and ``pong`` (the answer to the coordinator's ``ping``)."""

    type: str


Request = Hello | MoveRequest | Answer | Plain

PLAIN_REQUESTS: Final = frozenset({"takeback", "offer_draw", "claim_draw", "resign", "new_game", "ping", "pong"})
ANSWERABLE: Final = frozenset({"draw", "takeback", "new_game"})


def parse_request(line: bytes) -> Request:
    """A client's line as a typed request; :class:`LineRefused` says what is wrong with it."""
    message = parse_message(line, MAX_REQUEST_BYTES)
    kind = message["type"]
    if kind == "hello":
        seat = _string(message, "seat", required=False)
        if seat not in (None, "any", *Seat):
            raise LineRefused("bad_field", 'seat must be "white", "black", "watch" or "any"')
        probe = message.get("probe", False)
        if not isinstance(probe, bool):
            raise LineRefused("bad_field", "probe must be true or false")
        return Hello(
            protocol=_integer(message, "protocol"),
            token=_word(message, "token") or "",
            seat=None if seat in (None, "any") else Seat(seat),
            name=clean_name(_string(message, "name", required=False) or ""),
            client=_word(message, "client") or "",
            probe=probe,
        )
    if kind == "move":
        draw = message.get("draw", False)
        if not isinstance(draw, bool):
            raise LineRefused("bad_field", "draw must be true or false")
        return MoveRequest(_word(message, "move", required=True, limit=MAX_MOVE) or "", _integer(message, "ply"), draw)
    if kind == "answer":
        to = _string(message, "to")
        if to not in ANSWERABLE:
            raise LineRefused("bad_field", f"to must be one of {', '.join(sorted(ANSWERABLE))}")
        accept = message.get("accept")
        if not isinstance(accept, bool):
            raise LineRefused("bad_field", "accept must be true or false")
        return Answer(str(to), accept)
    if kind in PLAIN_REQUESTS:
        return Plain(kind)
    raise LineRefused("unknown_type", f"unknown message type {printable(kind[:40])!r}")


def _string(message: Mapping[str, Any], name: str, *, required: bool = True) -> str | None:
    value = message.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise LineRefused("bad_field", f"{name} must be a string")
    if len(value) > _MAX_FIELD:
        raise LineRefused("bad_field", f"{name} may hold at most {_MAX_FIELD} characters")
    return value


def _word(message: Mapping[str, Any], name: str, *, required: bool = False, limit: int = _MAX_FIELD) -> str | None:
    """A string field that is used, not only shown (a token, an identity, a move): printable, with no spaces
    or control, format or unassigned characters, at most ``limit`` of them."""
    value = _string(message, name, required=required)
    if value is None:
        return None
    if len(value) > limit:
        raise LineRefused("bad_field", f"{name} may hold at most {limit} characters")
    if not value.isprintable() or " " in value:
        raise LineRefused("bad_field", f"{name} must be printable text without spaces")
    return value


def _integer(message: Mapping[str, Any], name: str) -> int:
    value = message.get(name)
    if type(value) is not int or not 0 <= value < 1 << 31:
        raise LineRefused("bad_field", f"{name} must be a whole number")
    return value


# --- the snapshot: what the coordinator sends ---------------------------------------------------


@dataclass(frozen=True)
class ClockTimes:
    """The coordinator's clock as it is when the snapshot is taken: enough to run a copy of it."""

    white: float
    black: float
    to_move: Colour | None
    """The side whose turn is being timed (also while paused); ``None`` before the first move."""
    running: bool
    paused: bool
    turn_start: float
    delay_left: float
    flagged: Colour | None

    def to_json(self) -> dict[str, Any]:
        return {
            "white": self.white,
            "black": self.black,
            "to_move": colour_name(self.to_move),
            "running": self.running,
            "paused": self.paused,
            "turn_start": self.turn_start,
            "delay_left": self.delay_left,
            "flagged": colour_name(self.flagged),
        }

    @classmethod
    def from_json(cls, value: object) -> ClockTimes:
        if not isinstance(value, dict):
            raise LineRefused("bad_field", "clock must be an object")
        return cls(
            _seconds(value, "white"),
            _seconds(value, "black"),
            parse_colour(value.get("to_move"), "clock.to_move"),
            _flag(value, "running"),
            _flag(value, "paused"),
            _seconds(value, "turn_start"),
            _seconds(value, "delay_left"),
            parse_colour(value.get("flagged"), "clock.flagged"),
        )


@dataclass(frozen=True)
class SeatView:
    """What everyone sees of a seat: its player's name, whether someone holds it, and whether they are here."""

    name: str = ""
    held: bool = False
    connected: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "held": self.held, "connected": self.connected}

    @classmethod
    def from_json(cls, value: object) -> SeatView:
        if not isinstance(value, dict):
            raise LineRefused("bad_field", "a seat must be an object")
        name = value.get("name", "")
        if not isinstance(name, str):
            raise LineRefused("bad_field", "a seat's name must be a string")
        return cls(clean_name(name, default=""), _flag(value, "held"), _flag(value, "connected"))


@dataclass(frozen=True)
class PendingRequest:
    """A takeback or a new game one player asked for, waiting for the other's answer."""

    kind: str
    """``"takeback"`` or ``"new_game"``."""
    by: Colour
    plies: int = 0
    """For a takeback: how many half-moves go (1, or 2 to bring the asker's turn back)."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "by": colour_name(self.by), "plies": self.plies}

    @classmethod
    def from_json(cls, value: object) -> PendingRequest | None:
        if value is None:
            return None
        if not isinstance(value, dict) or value.get("kind") not in ("takeback", "new_game"):
            raise LineRefused("bad_field", 'request must be null or an object of kind "takeback" or "new_game"')
        by = parse_colour(value.get("by"), "request.by")
        plies = value.get("plies", 0)
        if by is None or type(plies) is not int or not 0 <= plies <= 2:
            raise LineRefused("bad_field", "a request needs who asked (by) and 0 to 2 plies")
        return cls(str(value["kind"]), by, plies)


class EventKind(StrEnum):
    """What just happened, for each client to say in its own language (``said`` is the coordinator's words)."""

    JOINED = "joined"
    """``name`` takes the seat of ``colour`` (``null``: watches)."""
    LEFT = "left"
    """The player ``name`` of ``colour`` left; the seat is kept for them."""
    PLAYED = "played"
    """``colour`` played ``moves`` (CTL-AN), offering a draw with it if ``draw``."""
    OFFERS_DRAW = "offers_draw"
    CLAIMS_DRAW = "claims_draw"
    RESIGNS = "resigns"
    ASKS_TAKEBACK = "asks_takeback"
    """``colour`` asks to take back ``moves`` (CTL-AN, comma-separated)."""
    ASKS_NEW_GAME = "asks_new_game"
    ACCEPTS_DRAW = "accepts_draw"
    DECLINES_DRAW = "declines_draw"
    DECLINES_TAKEBACK = "declines_takeback"
    DECLINES_NEW_GAME = "declines_new_game"
    TOOK_BACK = "took_back"
    """``colour`` agreed: their opponent took back ``count`` half-moves."""
    NEW_GAME = "new_game"
    FLAG_FALL = "flag_fall"


@dataclass(frozen=True)
class Event:
    """What a snapshot's change was, as data: each client words it in its own language.

    A client that does not know an event's kind (a later protocol version)
    or finds a field of the wrong type shows ``said`` instead, so an event is
    never a reason to refuse a snapshot.
    """

    kind: EventKind
    colour: Colour | None = None
    name: str = ""
    moves: str = ""
    count: int = 0
    draw: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "colour": colour_name(self.colour),
            "name": self.name,
            "moves": self.moves,
            "count": self.count,
            "draw": self.draw,
        }

    @classmethod
    def from_json(cls, value: object) -> Event | None:
        """The event ``value`` describes, or ``None`` (none, or one this client cannot read: it shows ``said``)."""
        if not isinstance(value, dict) or value.get("kind") not in tuple(EventKind):
            return None
        name, moves, count, draw = (value.get(key, default) for key, default in EVENT_DEFAULTS)
        if not isinstance(name, str) or not isinstance(moves, str) or not isinstance(draw, bool):
            return None
        if type(count) is not int or not 0 <= count <= 2:
            return None
        try:
            colour = parse_colour(value.get("colour"), "event.colour")
        except LineRefused:
            return None
        return cls(EventKind(value["kind"]), colour, clean_name(name, default=""), _clean_line(moves), count, draw)


EVENT_DEFAULTS: Final = (("name", ""), ("moves", ""), ("count", 0), ("draw", False))


@dataclass(frozen=True)
class Snapshot:
    """Everything a client shows of the game, as the coordinator has it now."""

    seq: int
    """Counts the coordinator's updates: a client ignores one older than what it has."""
    pgn: str
    clock: ClockTimes | None
    draw_offer: Colour | None
    """The side whose draw offer waits for the other's answer."""
    request: PendingRequest | None
    white: SeatView
    black: SeatView
    watchers: int
    said: str = ""
    """What just happened, in the coordinator's words (``"Black played NG25-L17"``), or ``""``."""
    event: Event | None = None
    """What just happened, as data for the client to say in its language (``None``: nothing, or unreadable)."""

    def seat(self, colour: Colour) -> SeatView:
        return self.white if colour is Colour.WHITE else self.black

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "state",
            "seq": self.seq,
            "pgn": self.pgn,
            "clock": None if self.clock is None else self.clock.to_json(),
            "draw_offer": colour_name(self.draw_offer),
            "request": None if self.request is None else self.request.to_json(),
            "seats": {"white": self.white.to_json(), "black": self.black.to_json()},
            "watchers": self.watchers,
            "said": self.said,
            "event": None if self.event is None else self.event.to_json(),
        }

    @classmethod
    def from_json(cls, message: Mapping[str, Any]) -> Snapshot:
        pgn = message.get("pgn")
        seats = message.get("seats")
        seq = message.get("seq")
        watchers = message.get("watchers", 0)
        said = message.get("said") or ""
        if not isinstance(pgn, str) or not isinstance(seats, dict) or not isinstance(said, str):
            raise LineRefused("bad_field", "a state needs pgn (a string) and seats (an object)")
        if type(seq) is not int or type(watchers) is not int:
            raise LineRefused("bad_field", "seq and watchers must be whole numbers")
        clock = message.get("clock")
        return cls(
            seq=seq,
            pgn=pgn,
            clock=None if clock is None else ClockTimes.from_json(clock),
            draw_offer=parse_colour(message.get("draw_offer"), "draw_offer"),
            request=PendingRequest.from_json(message.get("request")),
            white=SeatView.from_json(seats.get("white", {})),
            black=SeatView.from_json(seats.get("black", {})),
            watchers=max(0, watchers),
            said=_clean_line(said),
            event=Event.from_json(message.get("event")),
        )


def _clean_line(text: str) -> str:
    """A sentence from a peer, safe to show on one line: control characters become spaces, 200 characters at most."""
    return "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)[:200]


def _seconds(value: Mapping[str, Any], name: str) -> float:
    number = value.get(name)
    if not isinstance(number, int | float) or isinstance(number, bool) or not math.isfinite(number) or number < 0:
        raise LineRefused("bad_field", f"clock.{name} must be a number of seconds >= 0")
    return float(number)


def _flag(value: Mapping[str, Any], name: str) -> bool:
    flag = value.get(name, False)
    if not isinstance(flag, bool):
        raise LineRefused("bad_field", f"{name} must be true or false")
    return flag


# --- framing and pacing ----------------------------------------------------------------------------


class LineBuffer:
    """Bytes from a socket cut into lines of at most ``limit`` bytes.

    A line longer than the limit is never held in memory whole: its first
    ``limit`` bytes are dropped and :meth:`feed` yields :data:`TOO_LONG` for
    it once, then the rest up to its newline is skipped.
    """

    TOO_LONG: Final = None

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._pending = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | None]:
        """The complete lines in ``data`` (without their ``\\n``), and ``None`` for each line that was too long."""
        lines: list[bytes | None] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            if self._skipping:
                if end >= 0:
                    self._skipping = False
            elif len(self._pending) + len(chunk) > self.limit:
                self._pending.clear()
                lines.append(self.TOO_LONG)
                self._skipping = end < 0
            elif end >= 0:
                self._pending += chunk
                lines.append(bytes(self._pending).rstrip(b"\r"))
                self._pending.clear()
            else:
                self._pending += chunk
            if end < 0:
                break
            start = end + 1
        return lines


class RateLimiter:
    """A token bucket: ``rate`` lines a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float, *, time_source: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._now = time_source
        self._tokens = burst
        self._last = time_source()

    def allow(self) -> bool:
        """Whether one more line may be handled now (it takes a token)."""
        now = self._now()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
