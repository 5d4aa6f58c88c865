"""The server's commands for scripts (``ssh host COMMAND ...``): argv in, plain text and a status out.

:func:`run_command` is a pure dispatcher over the :class:`~.lobby.Lobby`: it
takes who is asking (their key), the words they sent and the language they
read, and returns a :class:`Reply`: the text to print and the exit status,
0 when done, 2 with one sentence saying why not (a refusal of the lobby, or
words it cannot read).  It never raises and never prints; the SSH server
sends the text and the status.  Lists print one line per item, or with
``--json`` a JSON array (so do the commands that report a game, with a JSON
object), for scripts.  Every sentence goes through the catalogs and is said
in the caller's language; names, moves and records are the same in all.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.clock import ClockError, ClockKind, TimeControl
from ..core.game import Game
from ..core.message import Message, Nn_, PieceWord, english_word
from ..core.outcome import Ending, Outcome
from ..core.pieces import WHITE, Colour, PieceType
from ..core.safe_text import printable
from ..i18n import N_, translation
from .games import CORRESPONDENCE_DAYS, DAY
from .lobby import Caller, DrawAnswer, Lobby, Refusal, Terms
from .model import Account, GameKind, GameStatus, PoolRating, SidePreference, StoredGame, colour_word

__all__ = ["COMMANDS", "Reply", "describe_game", "run_command"]

log = logging.getLogger(__name__)

DEFAULT_DAYS: Final = 3
"""Days per move of a game offered without ``--days`` or ``--clock``."""
MAX_WORDS: Final = 16
MAX_WORD: Final = 400
"""The most words a command takes, and the longest word (a key's line is a few hundred characters)."""
_NUMBER: Final = re.compile(r"[0-9]{1,9}")


@dataclass(frozen=True)
class Reply:
    """What a command answers: the text to print, and the exit status (0, or 2 with the reason as text)."""

    text: str
    status: int = 0


class _Usage(Exception):
    """The words cannot be read as the command; :attr:`reason` says how they should be."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


class _Words:
    """One language's words: gettext's two functions and the sides' names (a :class:`Translator`)."""

    def __init__(self, code: str) -> None:
        self.catalog = translation(code)

    def gettext(self, message: str, /) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return self.catalog.ngettext(singular, plural, count)

    def word(self, value: object) -> str:
        if isinstance(value, Colour):
            if value == WHITE:
                return self.catalog.pgettext("side in a sentence", "White")
            return self.catalog.pgettext("side in a sentence", "Black")
        if isinstance(value, Message):
            return self.say(value)
        if isinstance(value, PieceType | PieceWord):  # "the Elephant" is the catalogs' own phrase for it
            return self.catalog.gettext(english_word(value))
        return str(value)

    def say(self, message: Message) -> str:
        return message.say(self, self.word)


@dataclass
class _Request:
    """One command being answered: the lobby, who asks, their words, and what is left of their argv."""

    lobby: Lobby
    caller: Caller
    words: _Words
    args: list[str]
    _account: Account | None = field(default=None, init=False)

    def say(self, template: str | tuple[str, str], /, count: int | None = None, **values: object) -> str:
        return self.words.say(Message(template, count, **values))

    async def account(self) -> Account:
        if self._account is None:
            self._account = await self.lobby.account_of(self.caller)
        return self._account

    # --- reading the arguments ----------------------------------------------------------------------------

    def flag(self, name: str) -> bool:
        if name in self.args:
            self.args.remove(name)
            return True
        return False

    def option(self, name: str) -> str | None:
        if name not in self.args:
            return None
        at = self.args.index(name)
        if at + 1 >= len(self.args):
            raise _Usage(Message(N_("{option} needs a value"), option=name))
        value = self.args[at + 1]
        del self.args[at : at + 2]
        return value

    def word(self, what: str) -> str:
        """The next positional word; ``what`` names it in the refusal if it is missing (``NAME``, ``GAME``)."""
        for index, arg in enumerate(self.args):
            if not arg.startswith("--"):
                return self.args.pop(index)
        raise _Usage(Message(N_("{what} is missing"), what=what))

    def maybe_word(self) -> str | None:
        return self.word("") if any(not arg.startswith("--") for arg in self.args) else None

    def game_number(self) -> int:
        return _number(self.word("GAME"), 1, 999_999_999)

    def done(self) -> None:
        if self.args:
            raise _Usage(Message(N_("{word} is not understood here"), word=_quoted(self.args[0])))

    def terms(self) -> Terms:
        days, clock, side = self.option("--days"), self.option("--clock"), self.option("--as")
        preference = SidePreference.RANDOM
        if side is not None:
            try:
                preference = SidePreference(side)
            except ValueError:
                raise _Usage(Message(N_("--as takes white, black or random, not {side}"), side=_quoted(side))) from None
        if days is not None and clock is not None:
            raise _Usage(Message(N_("a game has --days or --clock, not both")))
        if clock is not None:
            try:
                control = TimeControl.from_tag(clock)
            except ClockError as error:
                raise _Usage(error.explanation) from None
            return Terms.live(control, preference)
        count = DEFAULT_DAYS if days is None else _number(days, CORRESPONDENCE_DAYS[0], CORRESPONDENCE_DAYS[-1])
        return Terms.correspondence(count, preference)


def _quoted(text: str) -> str:
    return f"'{printable(text, 40)}'"


def _number(text: str, lowest: int, highest: int) -> int:
    if _NUMBER.fullmatch(text) is None or not lowest <= int(text) <= highest:
        said = N_("{text} is not a whole number from {lowest} to {highest} (digits 0-9)")
        raise _Usage(Message(said, text=_quoted(text), lowest=lowest, highest=highest))
    return int(text)


def _when(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(datetime.UTC).isoformat()


def _moment(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=None)


# --- how games are said ----------------------------------------------------------------------------------------


def _timing(request: _Request, game: StoredGame) -> str:
    """``3 days per move``, or ``live, 10 min + 5 s``."""
    control = TimeControl.from_tag(game.time_control)
    if game.kind is GameKind.CORRESPONDENCE and control.kind is ClockKind.PER_MOVE:
        days = int(control.base // DAY)
        return request.say(Nn_("{count} day per move", "{count} days per move"), count=days)
    return request.say(N_("live, {clock}"), clock=control.description())


def _ending(game: StoredGame) -> Message:
    try:
        ending = Ending(game.ending or "")
    except ValueError:
        ending = Ending.RECORDED
    return Outcome.recorded(game.result, ending).message


def _state(request: _Request, game: StoredGame, me: int) -> str:
    """Where ``game`` stands, for the player ``me``."""
    number = game.id
    if game.status is GameStatus.SEEK:
        if game.creator == me:
            return request.say(N_("your seek: anyone may accept it"))
        return request.say(N_("seek by {name}: accept {game} to play it"), name=game.creator_name, game=number)
    if game.status is GameStatus.CHALLENGE:
        if game.creator == me:
            return request.say(N_("your challenge to {name}: waiting for an answer"), name=game.opponent_name)
        return request.say(
            N_("{name} challenges you: accept {game} or decline {game}"), name=game.creator_name, game=number
        )
    if game.status is GameStatus.FINISHED:
        return request.say(N_("{result}, {reason}"), result=game.result, reason=_ending(game))
    mover = game.white_name if game.to_move == WHITE else game.black_name
    mine = game.player(game.to_move) == me
    if game.deadline is None:
        said = request.say(N_("your move")) if mine else request.say(N_("{name}'s move"), name=mover)
    elif mine:
        said = request.say(N_("your move, until {deadline}"), deadline=_moment(game.deadline))
    else:
        said = request.say(N_("{name}'s move, until {deadline}"), name=mover, deadline=_moment(game.deadline))
    if game.draw_offer is not None:
        offerer = game.white_name if game.draw_offer == WHITE else game.black_name
        said += "; " + request.say(N_("{name} offers a draw"), name=offerer)
    return said


def _players(game: StoredGame) -> str:
    if game.white_name is None or game.black_name is None:
        return f"{game.creator_name} - {game.opponent_name or '?'}"
    return f"{game.white_name} - {game.black_name}"


def _line(request: _Request, game: StoredGame, me: int) -> str:
    return f"{game.id:>5}  {_players(game)}  ({_timing(request, game)})  {_state(request, game, me)}"


def _game_json(game: StoredGame, me: int | None) -> dict[str, Any]:
    control = TimeControl.from_tag(game.time_control)
    days = int(control.base // DAY) if game.kind is GameKind.CORRESPONDENCE else None
    playing = game.status is GameStatus.PLAYING
    side = None if me is None else game.colour_of(me)
    return {
        "id": game.id,
        "status": game.status.value,
        "kind": game.kind.value,
        "time_control": game.time_control,
        "days_per_move": days,
        "white": game.white_name,
        "black": game.black_name,
        "creator": game.creator_name,
        "creator_plays": game.creator_plays.value,
        "opponent": game.opponent_name,
        "your_side": colour_word(side),
        "ply": game.ply,
        "to_move": colour_word(game.to_move) if playing else None,
        "your_move": playing and side == game.to_move,
        "deadline": _when(game.deadline) if playing else None,
        "white_clock": game.white_clock if playing else None,
        "black_clock": game.black_clock if playing else None,
        "draw_offer": colour_word(game.draw_offer),
        "result": game.result,
        "ending": game.ending,
        "created": _when(game.created),
        "started": _when(game.started),
        "finished": _when(game.finished),
        "white_rating": list(game.white_ratings) if game.white_ratings else None,
        "black_rating": list(game.black_ratings) if game.black_ratings else None,
    }


def _moves_text(core: Game) -> list[str]:
    lines = []
    for index in range(0, len(core.nodes), 2):
        pair = core.nodes[index : index + 2]
        said = ", ".join(node.san + (" (=)" if node.draw_offer else "") for node in pair)
        lines.append(f"{pair[0].number}. {said}")
    return lines


async def _game_reply(request: _Request, game: StoredGame, text: str, as_json: bool) -> Reply:
    if as_json:
        return Reply(_dumps(_game_json(game, (await request.account()).id)))
    return Reply(text)


# --- the commands ---------------------------------------------------------------------------------------------


async def _register(request: _Request) -> Reply:
    name = request.word("NAME")
    code = request.maybe_word()
    request.done()
    account = await request.lobby.register(request.caller, name, code)
    return Reply(request.say(N_("welcome, {name}: this key is your account now"), name=account.name))


async def _games(request: _Request) -> Reply:
    finished, as_json = request.flag("--finished"), request.flag("--json")
    request.done()
    account = await request.account()
    games = await request.lobby.games(account, finished=finished)
    if as_json:
        return Reply(_dumps([_game_json(game, account.id) for game in games]))
    if not games:
        return Reply(request.say(N_("no finished games yet") if finished else N_("no games: seek or challenge NAME")))
    ordered = sorted(
        games,
        key=lambda g: (
            g.status is not GameStatus.PLAYING or g.player(g.to_move) != account.id,
            g.deadline or g.created,
        ),
    )
    return Reply("\n".join(_line(request, game, account.id) for game in ordered))


async def _who(request: _Request) -> Reply:
    as_json = request.flag("--json")
    request.done()
    names = [account.name for account in await request.lobby.online()]
    if as_json:
        return Reply(_dumps(names))
    if not names:
        return Reply(request.say(N_("no one is in the lobby now")))
    return Reply(request.say(Nn_("{count} player here: {names}", "{count} players here: {names}"),
                             count=len(names), names=", ".join(names)))  # fmt: skip


async def _whoami(request: _Request) -> Reply:
    request.done()
    return Reply((await request.account()).name)


async def _playing(request: _Request) -> Reply:
    as_json = request.flag("--json")
    request.done()
    games = await request.lobby.under_way()
    me = await request.lobby.whoami(request.caller)
    if as_json:
        return Reply(_dumps([_game_json(game, me.id if me else None) for game in games]))
    if not games:
        return Reply(request.say(N_("no game is being played now")))
    return Reply("\n".join(_line(request, game, me.id if me else 0) for game in games))


async def _show(request: _Request) -> Reply:
    number, as_json = request.game_number(), request.flag("--json")
    request.done()
    game, core = await request.lobby.look(number)
    me = await request.lobby.whoami(request.caller)
    if as_json:
        found = _game_json(game, me.id if me else None)
        found["moves"] = [node.san for node in core.nodes]
        found["pdtl"] = core.position.to_pdtl()
        return Reply(_dumps(found))
    head = f"{request.say(N_('game {game}'), game=number)}: {_players(game)} ({_timing(request, game)})"
    lines = [head, *_moves_text(core), f"PDTL {core.position.to_pdtl()}", _state(request, game, me.id if me else 0)]
    return Reply("\n".join(lines))


async def _pgn(request: _Request) -> Reply:
    number = request.game_number()
    request.done()
    return Reply((await request.lobby.pgn(number)).rstrip("\n"))


async def _play(request: _Request) -> Reply:
    number, move = request.game_number(), request.word("MOVE")
    offer, as_json = request.flag("--draw"), request.flag("--json")
    request.done()
    played = await request.lobby.play(await request.account(), number, move, offer_draw=offer)
    game = played.game
    if game.over:
        after = request.say(N_("{result}, {reason}"), result=game.result, reason=_ending(game))
    else:
        after = _state(request, game, (await request.account()).id)
    text = request.say(N_("played {move} in game {game}: {after}"), move=played.move, game=number, after=after)
    return await _game_reply(request, game, text, as_json)


async def _draw(request: _Request) -> Reply:
    number = request.game_number()
    request.done()
    answer, game = await request.lobby.draw(await request.account(), number)
    if answer is DrawAnswer.OFFERED:
        return Reply(request.say(N_("you offer a draw in game {game}: your opponent answers it"), game=number))
    return Reply(
        request.say(
            N_("game {game} is drawn: {result}, {reason}"), game=number, result=game.result, reason=_ending(game)
        )
    )


async def _resign(request: _Request) -> Reply:
    number = request.game_number()
    request.done()
    game = await request.lobby.resign(await request.account(), number)
    return Reply(request.say(N_("you resign game {game}: {result}"), game=number, result=game.result))


async def _challenge(request: _Request) -> Reply:
    name, terms, as_json = request.word("NAME"), request.terms(), request.flag("--json")
    request.done()
    game = await request.lobby.challenge(await request.account(), name, terms)
    said = N_("game {game}: your challenge to {name} ({timing}); they answer with accept {game} or decline {game}")
    text = request.say(said, game=game.id, name=game.opponent_name, timing=_timing(request, game))
    return await _game_reply(request, game, text, as_json)


async def _seek(request: _Request) -> Reply:
    terms, as_json = request.terms(), request.flag("--json")
    request.done()
    game = await request.lobby.seek(await request.account(), terms)
    said = N_("game {game}: your seek ({timing}) is open to anyone; decline {game} withdraws it")
    return await _game_reply(request, game, request.say(said, game=game.id, timing=_timing(request, game)), as_json)


async def _seeks(request: _Request) -> Reply:
    as_json = request.flag("--json")
    request.done()
    seeks = await request.lobby.seeks()
    me = await request.lobby.whoami(request.caller)
    if as_json:
        return Reply(_dumps([_game_json(game, me.id if me else None) for game in seeks]))
    if not seeks:
        return Reply(request.say(N_("no open seeks: seek offers one")))
    lines = []
    for game in seeks:
        side = request.say(N_("as {side}"), side=Message(_SIDES[game.creator_plays]))
        lines.append(f"{game.id:>5}  {game.creator_name} ({side}, {_timing(request, game)})")
    return Reply("\n".join(lines))


_SIDES: Final = {
    SidePreference.WHITE: N_("White"),
    SidePreference.BLACK: N_("Black"),
    SidePreference.RANDOM: N_("either side"),
}


async def _accept(request: _Request) -> Reply:
    number, as_json = request.game_number(), request.flag("--json")
    request.done()
    account = await request.account()
    game = await request.lobby.accept(account, number)
    side = game.colour_of(account.id)
    said = N_("game {game} has begun: you play {side} against {name}; {state}")
    opponent = game.black_name if side == WHITE else game.white_name
    text = request.say(said, game=number, side=side, name=opponent, state=_state(request, game, account.id))
    return await _game_reply(request, game, text, as_json)


async def _decline(request: _Request) -> Reply:
    number = request.game_number()
    request.done()
    await request.lobby.decline(await request.account(), number)
    return Reply(request.say(N_("game {game} is withdrawn"), game=number))


async def _ratings(request: _Request) -> Reply:
    as_json = request.flag("--json")
    chosen = request.maybe_word()
    request.done()
    pools = list(GameKind)
    if chosen is not None:
        try:
            pools = [GameKind(chosen)]
        except ValueError:
            raise _Usage(
                Message(N_("ratings takes live or correspondence, not {pool}"), pool=_quoted(chosen))
            ) from None
    tables = {pool: await request.lobby.ratings(pool) for pool in pools}
    if as_json:
        return Reply(_dumps([_rating_json(entry) for pool in pools for entry in tables[pool]]))
    lines = []
    for pool in pools:
        lines.append(request.say(_POOLS[pool]))
        if not tables[pool]:
            lines.append("  " + request.say(N_("no rated games yet")))
        for place, entry in enumerate(tables[pool], 1):
            games = request.say(Nn_("{count} game", "{count} games"), count=entry.games)
            lines.append(
                f"{place:>4}. {entry.name}  {entry.rating.rating:.0f} ±{entry.rating.deviation:.0f}  ({games})"
            )
    return Reply("\n".join(lines))


_POOLS: Final = {GameKind.LIVE: N_("Live games"), GameKind.CORRESPONDENCE: N_("Correspondence games")}


def _rating_json(entry: PoolRating) -> dict[str, Any]:
    return {
        "name": entry.name,
        "pool": entry.pool.value,
        "rating": round(entry.rating.rating, 2),
        "deviation": round(entry.rating.deviation, 2),
        "volatility": round(entry.rating.volatility, 6),
        "games": entry.games,
        "rated": _when(entry.rated),
    }


async def _keys(request: _Request) -> Reply:
    action = request.maybe_word() or "list"
    if action == "link":
        code = request.word("CODE")
        request.done()
        account = await request.lobby.link(request.caller, code)
        return Reply(request.say(N_("this key is {name}'s now"), name=account.name))
    account = await request.account()
    if action == "add":
        request.done()
        code, expires = await request.lobby.link_code(account)
        said = N_("to add a key, log in with it before {deadline} and run: keys link {code}")
        return Reply(request.say(said, deadline=_moment(expires), code=code))
    if action == "remove":
        fingerprint = request.word("FINGERPRINT")
        request.done()
        await request.lobby.remove_key(account, request.caller, fingerprint)
        return Reply(request.say(N_("the key {fingerprint} is removed"), fingerprint=fingerprint))
    if action != "list":
        raise _Usage(Message(N_("keys takes add, link CODE or remove FINGERPRINT, not {word}"), word=_quoted(action)))
    as_json = request.flag("--json")
    request.done()
    keys = await request.lobby.keys(account)
    mine = request.caller.key.fingerprint
    if as_json:
        return Reply(
            _dumps(
                [
                    {
                        "fingerprint": k.fingerprint,
                        "key": k.key,
                        "added": _when(k.added),
                        "this_key": k.fingerprint == mine,
                    }
                    for k in keys
                ]
            )
        )
    this = request.say(N_("the key you use now"))
    return Reply(
        "\n".join(
            f"{k.fingerprint}  {k.key.split()[0]}  {_moment(k.added)}"
            + (f"  ({this})" if k.fingerprint == mine else "")
            for k in keys
        )
    )


async def _notify(request: _Request) -> Reply:
    choice = request.maybe_word()
    request.done()
    account = await request.account()
    if choice not in (None, "on", "off"):
        raise _Usage(Message(N_("notify takes on or off, not {word}"), word=_quoted(choice or "")))
    on = account.notify if choice is None else choice == "on"
    if choice is not None:
        await request.lobby.set_notify(account, on)
    if on:
        return Reply(request.say(N_("notifications are on: the server tells you when it is your move")))
    return Reply(request.say(N_("notifications are off")))


async def _help(request: _Request) -> Reply:
    request.args.clear()
    width = max(len(usage) for usage, _ in _HELP)
    return Reply("\n".join(f"{usage.ljust(width)}  {request.say(what)}" for usage, what in _HELP))


_HELP: Final = (
    ("register NAME [CODE]", N_("choose your name (with an invitation code, if the server asks for one)")),
    ("games [--finished] [--json]", N_("your games, those where it is your move first")),
    ("show GAME [--json]", N_("a game: its players, moves, position and whose move it is")),
    ("pgn GAME", N_("a game's record, in CTL-PGN")),
    ("play GAME MOVE [--draw]", N_("play a move (CTL-AN), offering a draw with it if you like")),
    ("draw GAME", N_("accept a draw offer, claim a draw, or offer one after your move")),
    ("resign GAME", N_("resign a game")),
    ("challenge NAME [--days N | --clock TC] [--as white|black|random]", N_("offer a game to one player")),
    ("seek [--days N | --clock TC] [--as white|black|random]", N_("offer a game to anyone")),
    ("seeks [--json]", N_("the open seeks")),
    ("accept GAME", N_("accept a seek or a challenge")),
    ("decline GAME", N_("decline a challenge, or withdraw your own seek or challenge")),
    ("playing [--json]", N_("the games being played now, to watch with show GAME")),
    ("whoami", N_("your name on this server")),
    ("who [--json]", N_("the players in the lobby now, through any of the server's processes")),
    ("ratings [live|correspondence] [--json]", N_("the rating tables")),
    ("keys [add | link CODE | remove FINGERPRINT] [--json]", N_("your keys; add another key to your account")),
    ("notify [on|off]", N_("whether the server tells you when it is your move")),
)

COMMANDS: Final[dict[str, Callable[[_Request], Awaitable[Reply]]]] = {
    "register": _register,
    "games": _games,
    "show": _show,
    "pgn": _pgn,
    "play": _play,
    "draw": _draw,
    "resign": _resign,
    "challenge": _challenge,
    "seek": _seek,
    "seeks": _seeks,
    "accept": _accept,
    "decline": _decline,
    "ratings": _ratings,
    "who": _who,
    "whoami": _whoami,
    "playing": _playing,
    "keys": _keys,
    "notify": _notify,
    "help": _help,
}
"""Every command, by the word that names it."""


async def describe_game(
    lobby: Lobby, caller: Caller, account: Account, number: int, language: str = "en"
) -> str | None:
    """One line on game ``number`` as ``caller``, whose account is ``account``, sees it in the lobby (where it
    stands, its last move), or ``None`` when it is none of theirs: another's game, a challenge to someone else."""
    game, core = await lobby.look(number)
    me = account.id
    if game.status is not GameStatus.SEEK and me not in (game.creator, game.opponent, game.white, game.black):
        return None
    words = _Words(language)
    request = _Request(lobby, caller, words, [])
    request._account = account
    line = _line(request, game, me)
    if core.nodes:
        last = core.nodes[-1]
        line += "  (" + words.say(Message(N_("last move: {number}. {move}"), number=last.number, move=last.san)) + ")"
    return line


async def run_command(lobby: Lobby, caller: Caller, argv: Sequence[str], language: str = "en") -> Reply:
    """Answer the command ``argv`` (its name, then its words) from ``caller``, in ``language``."""
    words = _Words(language)
    if not argv:
        return Reply(words.say(Message(N_("no command: help lists them"))), 2)
    if len(argv) > MAX_WORDS or any(len(word) > MAX_WORD for word in argv):
        return Reply(words.say(Message(N_("too many words, or too long a word, for any command"))), 2)
    command = COMMANDS.get(argv[0])
    if command is None:
        return Reply(words.say(Message(N_("{word} is no command: help lists them"), word=_quoted(argv[0]))), 2)
    request = _Request(lobby, caller, words, list(argv[1:]))
    try:
        return await command(request)
    except (Refusal, _Usage) as refused:
        return Reply(words.say(refused.reason), 2)
    except Exception:
        log.exception("the command %r failed", printable(" ".join(argv), 200))
        return Reply(words.say(Message(N_("the server could not do that: the operator can read why in its log"))), 2)
