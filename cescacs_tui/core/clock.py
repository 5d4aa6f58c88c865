"""Chess clocks: time controls, their CTL-PGN ``TimeControl`` tag, and a drift-free two-sided clock.

A side whose flag falls loses the game: the opponent wins (RULES.md 10.1).

The clock never counts ticks.  It keeps, per side, the time left at the start of the current
*segment* (a stretch of uninterrupted running) and the time-source reading when that segment
began; the running side's time is always computed from a fresh reading.  A user interface that
redraws late, or not at all, therefore cannot make the clock drift, and tests can drive the clock
exactly with a fake time source.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum, auto
from typing import Final

from .errors import CescacsError
from .message import N_, Message
from .pieces import Colour


class ClockError(CescacsError):
    """A time control is malformed or unsupported, or the clock was used when it cannot be."""


class ClockKind(StrEnum):
    """How a time control adds time back (or does not)."""

    NONE = auto()
    """No clock: time is unlimited and no flag can fall."""
    SUDDEN_DEATH = auto()
    """``base`` seconds per side for the whole game, nothing added."""
    FISCHER = auto()
    """``base`` per side; ``increment`` added after each completed move, the first included."""
    BRONSTEIN = auto()
    """``base`` per side; after each move the mover gets back the time used on it, up to ``delay``."""
    SIMPLE_DELAY = auto()
    """``base`` per side; each turn the clock waits ``delay`` seconds before counting down (US delay)."""
    PER_MOVE = auto()
    """``base`` seconds for every single move; the time is reset at the start of each turn."""


_DELAY_KINDS: Final = (ClockKind.BRONSTEIN, ClockKind.SIMPLE_DELAY)
_SEPARATOR_KIND: Final = {
    "": ClockKind.SUDDEN_DEATH,
    "+": ClockKind.FISCHER,
    "d": ClockKind.SIMPLE_DELAY,
    "b": ClockKind.BRONSTEIN,
}
_KIND_SEPARATOR: Final = {kind: sep for sep, kind in _SEPARATOR_KIND.items()}
MAX_CONTROL_SECONDS: Final = 999_999
"""The largest base, increment or delay (11.5 days): six digits in a tag, and clock faces that stay readable."""
MAX_CLOCK_SECONDS: Final = 1_000_000 * 3600
"""The largest time a clock is set to (:meth:`ChessClock.set_remaining`): a million hours, more than a ``[%clk]``
comment can say (six digits of hours).  Beyond it a time read from a file is refused, not computed with: ``1e308``
seconds would overflow the clock face's arithmetic."""
_TAG_RE: Final = re.compile(r"(?P<base>[0-9]{1,6})(?:(?P<sep>[+db])(?P<extra>[0-9]{1,6}))?")
_PER_MOVE_TAG_RE: Final = re.compile(r"\*(?P<base>[0-9]{1,6})")
_TAG_FORMS_SAID: Final = Message(
    N_(
        "'?' (unknown) or '-' (no clock), '<base>' (sudden death), '<base>+<increment>' (Fischer), "
        "'<base>d<delay>' (simple delay), '<base>b<delay>' (Bronstein delay) or '*<seconds>' (per move), "
        "all in whole seconds (at most {most})"
    ),
    most=MAX_CONTROL_SECONDS,
)
"""The accepted ``TimeControl`` tag values, for error messages a front end says in its language."""
_FIELD_WORDS: Final = {"base": N_("base"), "increment": N_("increment"), "delay": N_("delay")}


def _duration(seconds: float) -> str:
    """Whole seconds for people: ``"5 min"``, ``"1 min 30 s"``, ``"10 s"``."""
    minutes, secs = divmod(int(seconds), 60)
    if not minutes:
        return f"{secs} s"
    return f"{minutes} min" if not secs else f"{minutes} min {secs} s"


@dataclass(frozen=True)
class TimeControl:
    """A time control: how much time each side has and how time is added back.

    Only the fields that apply to ``kind`` may be non-zero (``increment`` for FISCHER, ``delay`` for
    BRONSTEIN and SIMPLE_DELAY), and every value is a whole number of seconds, so that each control
    can be written as a tag and read back equal.  For PER_MOVE, ``base`` is the time for each move.
    """

    kind: ClockKind
    base: float = 0.0
    increment: float = 0.0
    delay: float = 0.0

    def __post_init__(self) -> None:
        for name, value in (("base", self.base), ("increment", self.increment), ("delay", self.delay)):
            if not (math.isfinite(value) and value >= 0 and float(value).is_integer()):
                template = N_("{name} must be a whole number of seconds, not {value}")
                raise ClockError(Message(template, name=Message(_FIELD_WORDS[name]), value=repr(value)))
            if value > MAX_CONTROL_SECONDS:
                template = N_("{name} must be at most {most} seconds, not {value}")
                given = f"{value:.0f}"  # no thousands separator: languages differ on it
                raise ClockError(
                    Message(template, name=Message(_FIELD_WORDS[name]), most=MAX_CONTROL_SECONDS, value=given)
                )
        if self.kind is ClockKind.NONE and self.base:
            raise ClockError(Message(N_("a control without clock has no base time")))
        if self.enabled and not self.base:
            raise ClockError(Message(N_("the base time must be more than 0 seconds")))
        if self.increment and self.kind is not ClockKind.FISCHER:
            raise ClockError(Message(N_("an increment needs a Fischer control, not {kind}"), kind=self.kind.value))
        if self.delay and self.kind not in _DELAY_KINDS:
            template = N_("a delay needs a Bronstein or simple delay control, not {kind}")
            raise ClockError(Message(template, kind=self.kind.value))

    @property
    def enabled(self) -> bool:
        """Whether there is a clock at all."""
        return self.kind is not ClockKind.NONE

    @classmethod
    def from_tag(cls, text: str) -> TimeControl:
        """Read a CTL-PGN ``TimeControl`` tag value (NOTATION.md 7.3.3), surrounding spaces ignored.

        ``?`` (unknown) and ``-`` (none) both give :data:`NO_CLOCK`: an unknown control cannot be
        enforced.  ``4500`` is sudden death, ``4500+60`` Fischer, ``*180`` per move.  Delays are not
        in the standard; this reader (and :meth:`to_tag`) use ``900d5`` for a simple delay and ``900b5``
        for a Bronstein delay.  Move-count periods (``40/9000``) are not supported.
        """
        value = text.strip()
        if value in ("?", "-"):
            return NO_CLOCK
        if "/" in value:
            template = N_("TimeControl {tag}: move-count periods (moves/seconds) are not supported; use {forms}")
            raise ClockError(Message(template, tag=repr(text), forms=_TAG_FORMS_SAID))
        if per_move := _PER_MOVE_TAG_RE.fullmatch(value):
            kind, base, extra = ClockKind.PER_MOVE, per_move["base"], "0"
        elif match := _TAG_RE.fullmatch(value):
            kind, base, extra = _SEPARATOR_KIND[match["sep"] or ""], match["base"], match["extra"] or "0"
        else:
            template = N_("TimeControl {tag} is not understood; expected {forms}")
            raise ClockError(Message(template, tag=repr(text), forms=_TAG_FORMS_SAID))
        try:
            return cls(
                kind,
                float(base),
                increment=float(extra) if kind is ClockKind.FISCHER else 0.0,
                delay=float(extra) if kind in _DELAY_KINDS else 0.0,
            )
        except ClockError as error:
            raise ClockError(
                Message(N_("TimeControl {tag}: {reason}"), tag=repr(text), reason=error.explanation)
            ) from None

    def to_tag(self) -> str:
        """The CTL-PGN ``TimeControl`` tag value; ``from_tag(c.to_tag()) == c`` for every control.

        A clockless control is written ``-``, so a ``?`` read earlier comes back as ``-``.
        """
        match self.kind:
            case ClockKind.NONE:
                return "-"
            case ClockKind.PER_MOVE:
                return f"*{self.base:.0f}"
            case ClockKind.SUDDEN_DEATH:
                return f"{self.base:.0f}"
            case ClockKind.FISCHER:
                return f"{self.base:.0f}+{self.increment:.0f}"
            case _:
                return f"{self.base:.0f}{_KIND_SEPARATOR[self.kind]}{self.delay:.0f}"

    def describe(self) -> str:
        """A short description for people: ``"15 min + 10 s"``, ``"5 min, 3 s delay"``, ``"No clock"``."""
        return str(self.description())

    def description(self) -> Message:
        """:meth:`describe` as a :class:`~cescacs_tui.core.message.Message`, for a front end to say in its language
        (the units, ``min`` and ``s``, are the same in every language the interface speaks)."""
        base = _duration(self.base)
        match self.kind:
            case ClockKind.NONE:
                return Message(N_("No clock"))
            case ClockKind.SUDDEN_DEATH:
                return Message.verbatim(base)
            case ClockKind.FISCHER:
                return Message(N_("{base} + {increment}"), base=base, increment=_duration(self.increment))
            case ClockKind.BRONSTEIN:
                return Message(N_("{base}, {delay} Bronstein delay"), base=base, delay=_duration(self.delay))
            case ClockKind.SIMPLE_DELAY:
                return Message(N_("{base}, {delay} delay"), base=base, delay=_duration(self.delay))
            case _:
                return Message(N_("{base} per move"), base=base)


NO_CLOCK: Final = TimeControl(ClockKind.NONE)

PRESETS: Final[dict[str, TimeControl]] = {
    N_("No clock"): NO_CLOCK,
    N_("Bullet 1+0"): TimeControl(ClockKind.SUDDEN_DEATH, 60),
    N_("Bullet 2+1"): TimeControl(ClockKind.FISCHER, 120, increment=1),
    N_("Blitz 3+0"): TimeControl(ClockKind.SUDDEN_DEATH, 180),
    N_("Blitz 3+2"): TimeControl(ClockKind.FISCHER, 180, increment=2),
    N_("Blitz 5+0"): TimeControl(ClockKind.SUDDEN_DEATH, 300),
    N_("Blitz 5+3"): TimeControl(ClockKind.FISCHER, 300, increment=3),
    N_("Blitz 5+5"): TimeControl(ClockKind.FISCHER, 300, increment=5),
    N_("Blitz 5, 3 s delay"): TimeControl(ClockKind.SIMPLE_DELAY, 300, delay=3),
    N_("Rapid 10+0"): TimeControl(ClockKind.SUDDEN_DEATH, 600),
    N_("Rapid 10+5"): TimeControl(ClockKind.FISCHER, 600, increment=5),
    N_("Rapid 15+10"): TimeControl(ClockKind.FISCHER, 900, increment=10),
    N_("Rapid 15, 10 s Bronstein"): TimeControl(ClockKind.BRONSTEIN, 900, delay=10),
    N_("Classical 30+0"): TimeControl(ClockKind.SUDDEN_DEATH, 1800),
    N_("Classical 30+20"): TimeControl(ClockKind.FISCHER, 1800, increment=20),
    N_("Classical 90+30"): TimeControl(ClockKind.FISCHER, 5400, increment=30),
    N_("30 s per move"): TimeControl(ClockKind.PER_MOVE, 30),
    N_("3 min per move"): TimeControl(ClockKind.PER_MOVE, 180),
}
"""Common controls for a picker, fastest first (the usual "minutes+seconds" names), then per move.

The names are English message ids (a picker shows them translated) and the picker's values."""


@dataclass(frozen=True)
class ClockState:
    """Everything needed to put a :class:`ChessClock` back exactly as it was (takeback).

    ``remaining`` is White's and Black's time at the snapshot, never below 0.  ``to_move`` is the side
    whose turn it was (``None`` before the clock was started); ``turn_start`` that side's time when its
    turn began (a Bronstein refund depends on it); ``delay_left`` the unused simple delay of the turn.
    """

    remaining: tuple[float, float]
    to_move: Colour | None
    turn_start: float
    delay_left: float
    flagged: Colour | None


class ChessClock:
    """Two countdown clocks, at most one running, driven by readings of a monotonic time source.

    The running side's time is computed from the reading taken at each call (see the module
    docstring), so any number of calls in any rhythm gives the same times.  A *turn* starts with
    :meth:`start`, or with :meth:`press` for the opponent; it may be split into several segments by
    :meth:`pause` / :meth:`resume`.
    """

    def __init__(self, control: TimeControl, *, time_source: Callable[[], float] = time.monotonic) -> None:
        self._control = control
        self._now = time_source
        full = control.base if control.enabled else math.inf
        self._stored = [full, full]
        self._to_move: Colour | None = None
        self._ticking = False
        self._paused = False
        self._flagged: Colour | None = None
        self._segment_start = 0.0
        self._turn_start = full
        self._delay_left = 0.0

    @property
    def control(self) -> TimeControl:
        return self._control

    @property
    def running(self) -> Colour | None:
        """The side whose clock runs; ``None`` before :meth:`start`, while paused, after a flag or :meth:`stop`."""
        return self._to_move if self._ticking else None

    @property
    def to_move(self) -> Colour | None:
        """The side whose turn the clock is timing, also while paused or stopped; ``None`` before start."""
        return self._to_move

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def flagged(self) -> Colour | None:
        """The side whose flag fell, if any (it lost on time)."""
        return self._flagged

    def _current(self, now: float) -> tuple[float, float]:
        """The side to move's time and its unused simple delay as of ``now`` (the time may be negative).

        While a simple delay lasts, elapsed time consumes the delay; only the rest is charged.
        """
        assert self._to_move is not None
        stored = self._stored[self._to_move]
        if not self._ticking:
            return stored, self._delay_left
        elapsed = now - self._segment_start
        delay_used = min(elapsed, self._delay_left)
        return stored - (elapsed - delay_used), self._delay_left - delay_used

    def _fold(self, now: float) -> None:
        """End the current segment at ``now``: store its result and start a new segment there."""
        if self._ticking:
            assert self._to_move is not None
            self._stored[self._to_move], self._delay_left = self._current(now)
        self._segment_start = now

    def _begin_turn(self, colour: Colour, now: float) -> None:
        """Start ``colour``'s turn at ``now``: a fresh per-move time or simple delay, its clock running."""
        if self._control.kind is ClockKind.PER_MOVE:
            self._stored[colour] = self._control.base
        self._to_move = colour
        self._ticking = True
        self._paused = False
        self._segment_start = now
        self._turn_start = self._stored[colour]
        self._delay_left = self._control.delay if self._control.kind is ClockKind.SIMPLE_DELAY else 0.0

    def _flag_at(self, now: float) -> Colour | None:
        """Mark the running side flagged if its time (and any simple delay) is used up at ``now``."""
        if self._ticking and sum(self._current(now)) <= 0:
            assert self._to_move is not None
            self._stored[self._to_move] = 0.0
            self._delay_left = 0.0
            self._flagged = self._to_move
            self._ticking = False
        return self._flagged

    def remaining(self, colour: Colour) -> float:
        """``colour``'s time left now, in seconds, never below 0; ``math.inf`` without a clock.

        During a simple delay the running side's time does not go down.
        """
        if colour == self._to_move:
            return max(0.0, self._current(self._now())[0])
        return max(0.0, self._stored[colour])

    def start(self, colour: Colour) -> None:
        """Start ``colour``'s turn: at the first move, or when a loaded game is resumed.

        This is a new turn: a per-move control gives ``colour`` the full ``base``, a simple delay
        starts afresh.  Raises :class:`ClockError` once a flag has fallen.
        """
        if self._flagged is not None:
            said = Message(N_("{side}'s flag has fallen; the clock cannot start again"), side=self._flagged)
            raise ClockError(said)
        now = self._now()
        self._fold(now)
        self._begin_turn(colour, now)

    def press(self) -> float:
        """The running side has completed its move: credit it and start the opponent's turn.

        FISCHER adds the increment; BRONSTEIN gives back the time used on this move, up to the
        delay; PER_MOVE resets the mover's display to ``base`` for its next turn.  Returns the
        mover's time after the move (after increment or refund; for PER_MOVE the time that was left
        for this move), the value a record stores as ``[%clk]``.  Raises :class:`ClockError` if the
        flag has fallen (also when it fell unnoticed before this call) or no clock runs.
        """
        now = self._now()
        flagged = self._flag_at(now)
        if flagged is not None:
            raise ClockError(Message(N_("{side}'s flag has already fallen; the move came too late"), side=flagged))
        mover = self.running
        if mover is None:
            raise ClockError(Message(N_("no clock is running (not started, paused or stopped)")))
        self._fold(now)
        left = self._stored[mover]
        after = left + self._credit(left)
        self._stored[mover] = self._control.base if self._control.kind is ClockKind.PER_MOVE else after
        self._begin_turn(mover.opponent, now)
        return after

    def _credit(self, left: float) -> float:
        """The time added back to a mover who has ``left`` seconds at the end of its move."""
        match self._control.kind:
            case ClockKind.FISCHER:
                return self._control.increment
            case ClockKind.BRONSTEIN:
                return min(self._control.delay, self._turn_start - left)
            case _:
                return 0.0

    def pause(self) -> None:
        """Freeze the running side's time (and unused simple delay); nothing happens if no clock runs.

        A flag that has already fallen is noticed first, so pausing cannot save a side out of time.
        """
        if not self._ticking:
            return
        now = self._now()
        if self._flag_at(now) is None:
            self._fold(now)
            self._ticking = False
            self._paused = True

    def resume(self) -> None:
        """Continue a paused clock from its frozen time and unused delay; nothing happens if not paused."""
        if self._paused:
            self._paused = False
            self._ticking = True
            self._segment_start = self._now()

    def check_flag(self) -> Colour | None:
        """Notice a flag fall: if the running side's time is used up now (``<= 0``), mark it and stop.

        Returns the flagged side, also one flagged earlier, or ``None``.  With a simple delay the
        flag falls only once the delay is used up too.
        """
        return self._flag_at(self._now())

    def seconds_until_flag(self) -> float | None:
        """How long until the running side's flag falls (simple delay included), for a UI timer.

        ``None`` when no clock runs or there is no clock at all; never below 0.
        """
        if self.running is None or not self._control.enabled:
            return None
        return max(0.0, sum(self._current(self._now())))

    def snapshot(self) -> ClockState:
        """The clock's state now; the game model takes one before each move, for takeback."""
        remaining = list(self._stored)
        delay_left = self._delay_left
        if self._to_move is not None:
            remaining[self._to_move], delay_left = self._current(self._now())
        white, black = (max(0.0, value) for value in remaining)
        return ClockState((white, black), self._to_move, self._turn_start, delay_left, self._flagged)

    def restore(self, state: ClockState) -> None:
        """Put both clocks back exactly as in ``state`` (takeback) and go on timing ``state.to_move``.

        The side to move runs from its restored time, unless the clock is paused (it stays paused,
        and resumes that side), ``state`` predates the start, or ``state`` has a flag fallen.  A
        stopped clock runs again: taking a move back reopens the game.
        """
        self._stored = list(state.remaining)
        self._to_move = state.to_move
        self._turn_start = state.turn_start
        self._delay_left = state.delay_left
        self._flagged = state.flagged
        self._segment_start = self._now()
        can_run = state.to_move is not None and state.flagged is None
        self._paused = self._paused and can_run
        self._ticking = can_run and not self._paused

    def set_remaining(self, white: float, black: float) -> None:
        """Set both sides' times, e.g. from the last ``[%clk]`` values of a resumed game.

        A running side counts down from its new time from now on.  Ignored without a clock (its time
        is unlimited); raises :class:`ClockError` for a time that is negative, not finite, or beyond
        :data:`MAX_CLOCK_SECONDS`.
        """
        if not self._control.enabled:
            return
        for value in (white, black):
            if not (math.isfinite(value) and 0 <= value <= MAX_CLOCK_SECONDS):
                said = N_("a clock time must be a number of seconds from 0 to {most}, not {value}")
                raise ClockError(Message(said, most=MAX_CLOCK_SECONDS, value=repr(value)))
        self._fold(self._now())
        self._stored = [white, black]
        if self._to_move is not None:
            self._turn_start = self._stored[self._to_move]

    def begin_turn_from(self, colour: Colour, white: float, black: float) -> None:
        """Time ``colour``'s turn afresh from these times, as after a takeback of a move with no snapshot.

        A move read from a record has no :class:`ClockState` of its own, only
        its ``[%clk]`` times; taking it back must still leave the clock timing
        the side now to move.  A paused clock stays paused (and will resume
        ``colour``); a clock never started stays unstarted.
        """
        if not self._control.enabled:
            return
        self.set_remaining(white, black)
        if self._to_move is None:
            return
        delay = self._control.delay if self._control.kind is ClockKind.SIMPLE_DELAY else 0.0
        self.restore(ClockState((white, black), colour, self._stored[colour], delay, None))

    def stop(self) -> None:
        """Game over: freeze both clocks where they are (a later :meth:`start` or :meth:`restore` may go on)."""
        self._fold(self._now())
        self._ticking = False
        self._paused = False


def ceil_tenths(seconds: float) -> int:
    """``seconds`` in tenths, rounded up, after rounding to milliseconds to shed float noise.

    Rounding up means a clock shows zero exactly when its flag has fallen, and a freshly started
    clock shows its full time.
    """
    millis = round(max(0.0, seconds) * 1000)
    return -(-millis // 100)


def hours_minutes_seconds(tenths: int) -> tuple[int, int, int]:
    """Hours, minutes and whole seconds (rounded up) of a time given in tenths."""
    minutes, secs = divmod(-(-tenths // 10), 60)
    hours, minutes = divmod(minutes, 60)
    return hours, minutes, secs


def format_clock(seconds: float) -> str:
    """A clock face: ``"1:02:03"``, ``"14:58"``, and ``"0:09.7"`` (tenths) under ten seconds.

    Rounded up (a time shows ``0:00.0`` only when it is used up); negative times show as zero and
    ``math.inf`` (no clock) as ``"∞"``.
    """
    if seconds == math.inf:
        return "∞"
    tenths = ceil_tenths(seconds)
    if tenths < 100:
        return f"0:{tenths // 10:02d}.{tenths % 10}"
    hours, minutes, secs = hours_minutes_seconds(tenths)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
