"""Build cescacs_tui/assets/puzzles.jsonl: the bundled puzzles, from engine self-play and the reference records.

    nice -n 10 python scripts/make_puzzles.py [--games 240] [--seed 27] [--jobs 2] [--minutes M] [--out ...]
    nice -n 10 python scripts/make_puzzles.py --first-game 240 --games 100 --add   # more games, same set
    nice -n 10 python scripts/make_puzzles.py --special --games 100 --add          # the special hunt
    nice -n 10 python scripts/make_puzzles.py --special --kinds castling --castling-strays --add   # castlings only
    nice -n 10 python scripts/make_puzzles.py --special --kinds castling --derived-forks --add     # derived forks
    nice -n 10 python scripts/make_puzzles.py --composed scripts/data/composed-castlings.txt --kinds castling --add

CPU-heavy: run it niced and bounded in time (``--minutes``: no new game is
waited for after that; the set is that of the first games that all
finished, and the script says which ``--games`` gives it again).  The same
arguments give the same set with the same engine, whatever ``--jobs``:
every search is bounded by nodes, not time, each game is worked on by a
fresh searcher, and the weak levels' randomness and the stray moves are
seeded.  The command and seed of the shipped set are in
cescacs_tui/assets/README.md.

Where positions come from:

* the reference records (``/work/shared/games`` when present, and
  ``tests/data/games``): every position of their main lines;
* ``--games`` games of the engine against itself, one side at a level drawn
  from 1-3 (the weak levels hang pieces and walk into mates: tactics for
  the other side), the other from 3-7 (``--weak`` and ``--strong`` change
  these: levels near each other play longer, balanced games, whose endgames
  have promotions at hand), after two random plies; ``--play-nodes`` nodes a
  move;
* stray moves: from each position of those games, a move the side to move
  could have played instead (see below).

The engine is used in this process through the package's own exports
(``cescacs_tui.engine``: ``Searcher``, ``SearchBoard``, ``Limits``, ``level``,
``choose_move``), since a margin needs a search of every legal move and a
process round trip per search would cost more than the search; ``--jobs``
processes share the games.

The reference records and the first ``--analyse-games`` self-play games
are analysed position by position at full strength (``--nodes`` nodes), and
so is, from each of their positions past the fourth ply that is not yet won,
the position after one random legal move instead of the one played.  A position becomes a
candidate when the engine sees a mate in 1-3 for the side to move (the
proof then decides: a big lead without a mate the engine sees is not sent
to the proof, which would spend half a minute to find nothing), or when
the side to move scores at least 1.5 pawns and either the opponent's last
move cost it 1.5 pawns or more, or a promotion, en passant, scornful capture
or castling is at hand.

* **Mates** are judged by proof alone (:mod:`cescacs_tui.learn.proof`): the
  shortest forced mate is found by enumeration, and kept only when exactly
  one first move forces it; the line is the longest defence each time, then
  a mating move.
* **Other puzzles** need an engine margin at each of the solver's steps:
  every legal move is searched at depth 1 (its replies and their captures),
  the six best-looking again at ``--deep-nodes`` nodes, and the best must
  score at least ``MARGIN`` (1.5 pawns) more than every other; at the first
  step the best must score at least 1.5 pawns and the second best at most 3
  (the position is not already won without the move).  The line goes on with
  the engine's reply until the material won (official values) is at least 2
  points, 1 for an en passant or scornful capture, and the reply takes none
  of it back; at most three solver's moves.

**The hunt** (``--hunt``, every game, no engine): from each position past
the fourth ply, every legal move the side to move could have played instead
is tried, and the position it leaves is a mate-in-one puzzle when the
opponent then mates with exactly one move (proved by enumeration, like every
mate); one puzzle per mating move in four plies of a game, since the same
mate found from a neighbouring stray is the same puzzle.  It is the cheap
source: a game's hunt costs about a fifth of a CPU-second a ply.

**The special hunt** (``--special``, instead of all the above): puzzles whose
first move is an en passant capture, a scornful capture, a promotion that
regains a piece or a castling, the kind read from the move itself
(:func:`special_theme`; ``--kinds`` chooses among them).  Its positions:
every position of each game, and every position a stray move leaves that
gives the opponent such a move (a multi-step or scornful step that opens a
capture; with ``--special-strays`` also any stray that leaves a promotion at
hand; with ``--castling-strays`` also any that leaves a castling at hand).
Castlings are tried only when :func:`telling_castlings` keeps them (the
castle gives check, moves a Rook that is attacked where it stands, or
attacks an enemy piece not attacked before that is worth more than a Rook
or unprotected): in an opening castling is at hand in most positions.  A
position whose side to move leads by ``DECIDED`` points of material is
skipped (it is already won), and when it is behind by as much only its
promotions are tried.  Each special move is tried as the lead of the margin
scan above: it is searched first, then the moves likeliest to come within
the margin of it (the same piece's: the pawn's other promotions, the King's
and the Rooks' moves), and the scan gives up at the first other move within
the margin; the best move must be the lead itself (a better special move,
such as another promotion of the same pawn, is tried as a lead of its own:
so a promotion is a puzzle only when the piece it regains is the best by the
margin, and a pawn that could regain a Queen or a Wyvern, worth about the
same, gives none).  The rest is as for the other puzzles, except that after
an en passant or scornful capture, which wins one pawn, the first step's
margin is one pawn (``PAWN_MARGIN``) and the first move must score at least
a pawn (``SPECIAL_WINNING``); and a castling that is the best by the margin
but wins nothing (it saves what every other move loses; it scores at least
``HOLDING``) is a one-move puzzle with the theme ``castling`` alone.  A
special move that mates at once goes to the proof.  One puzzle per first
move in ``HUNT_WINDOW`` plies of a game.  ``--game-nodes`` stops a game's
hunt at the first position after its searches passed that many nodes: a
game with promotions at hand for both sides can otherwise take the better
part of an hour, and nodes, unlike time, give the same puzzles every run.

**Derived forks** (``--derived-forks``, with ``--special``; castlings only): the one castling tactic of
C'escacs is to take away, in one move, a Rook attacked together with something else (both Rooks at once by a
double castling, RULES.md 8.3), and the games seldom leave one.  So in each position of the games where a
castling is at hand, ONE enemy piece the opponent really has (not a pawn or the King, a Bishop on its own hex
colour) is moved to an empty hex from which it attacks an unmoved Rook and the other Rook or another piece
worth more than it or unprotected (:func:`forked_rooks`): material stays legal, the side not to move is not in
check, the side to move is not (it could not castle) and cannot take the attacker, and a legal castling moves
an attacked Rook.  Each such position goes through :meth:`Builder.special_candidate` like any other, and the
puzzle's ``source`` says it is derived ("…, ply 30, derived: the black pegasus moved from E25 to F12").

**Composed positions** (``--composed FILE``, instead of records and games): chess problem collections hold
composed problems, and the castling tactics no game left (see above) are composed: FILE holds one position a
line, ``PDTL # the idea it was built for`` (:func:`read_composed`; ``scripts/data/composed-castlings.txt``).  A
composed position must be one a game could reach (PDTL read strictly: castling rights only for an unmoved King
and Rook on their home hexes, the side not to move not in check; no pawn where no pawn of its side can come),
and is judged exactly as the special hunt judges a game's (:meth:`Builder.composed`): a mate the engine sees
goes to the proof, anything else to :meth:`Builder.special_candidate` with the same margins, node budgets and
"not yet won" rule; only the sieve of castlings is left out (every castling of a composed position is tried).
The puzzle's ``source`` says "composed: <the idea>".

Themes and ratings come from :mod:`cescacs_tui.learn.themes`; a position
already used (the same placement, side and rights) is skipped, and so is a
main-line candidate fewer than four plies after a puzzle of the same game
(its own continuation).  Every puzzle passes :func:`~cescacs_tui.learn.puzzles.verify`
(what ``cescacs puzzles --check`` runs) before it is kept.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import multiprocessing
import random
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cescacs_tui.core import Game, Move, Position, geometry, read_pgn
from cescacs_tui.core.errors import CescacsError, PDTLError
from cescacs_tui.core.geometry import HEX_COLOUR, HEX_NAMES, HEXES, KINGS_ROOK_HOME, QUEENS_ROOK_HOME
from cescacs_tui.core.move import CASTLING, EN_PASSANT, MULTI_STEP, SCORNFUL_CAPTURE, SCORNFUL_STEP
from cescacs_tui.core.pdtl import format_pdtl
from cescacs_tui.core.pieces import BISHOP, KING, PAWN, ROOK, VALUES, Colour, PieceType
from cescacs_tui.engine import Limits, SearchBoard, Searcher, choose_move, level
from cescacs_tui.learn.proof import MAX_MATE, Budget, BudgetExceeded, MateProver
from cescacs_tui.learn.puzzles import BUNDLED, Puzzle, read_puzzle_file, verify
from cescacs_tui.learn.themes import material, solution_themes, starting_rating

ROOT = Path(__file__).resolve().parent.parent
RECORD_FOLDERS = (Path("/work/shared/games"), ROOT / "tests" / "data" / "games")
MATE_CP = 100_000
MARGIN = 150
"""Centipawns the solution's move must score above every other move, at each of the solver's steps."""
WINNING = 150
"""The first step's best move must score at least this (the solver's view)."""
NOT_YET_WON = 300
"""... and the second best at most this: the puzzle's move is what wins."""
BLUNDER = 150
"""A last move that cost its side this much makes the next position a candidate."""
TOP = 6
"""Moves searched again deeper after the depth-1 scan of every move."""
PROOF_BUDGET = 3_000_000
"""Moves a mate's proof may play before the position is skipped."""
MIN_GAP = 4
"""Plies after a puzzle of a game during which that game gives no other."""
STRAY_FROM = 4
"""The first ply from which a stray move is tried (``--strays``)."""
HUNT_WINDOW = 4
"""Plies of a game in which the hunt keeps one puzzle per mating move."""
PAWN_MARGIN = 100
"""The first step's margin when it is an en passant or scornful capture (the special hunt): the capture wins one
pawn, and every other move must score at least a pawn less (as ``MARGIN`` is for the bigger gains)."""
SPECIAL_WINNING = 100
"""In the special hunt, the first step's best move must score at least this (an en passant or scornful capture
wins one pawn) ..."""
HOLDING = -100
"""... or, for a castling that wins nothing but saves material, at least this (the castle holds the position)."""
DECIDED = 6
"""Points of material (official values) by which a side leads in a game the special hunt leaves alone: then
every reasonable move keeps more than ``NOT_YET_WON``, or (behind) only a promotion gains enough."""
OPENERS = (MULTI_STEP, SCORNFUL_STEP)
"""Stray moves that open an en passant or scornful capture for the opponent."""
PAWN_CAPTURES = (EN_PASSANT, SCORNFUL_CAPTURE)
SPECIAL_KINDS = ("promotion", "en-passant", "scornful-pawn", "castling")
"""The themes :func:`special_theme` reads from a special move, which ``--kinds`` chooses among."""


@dataclass
class Analysis:
    score: int
    """For the side to move; mates as ±(MATE_CP − 100 × moves)."""
    mate: int | None
    best: Move | None


class OverBudget(Exception):
    """A search went past the engine's node cap (a position whose captures and promotions explode)."""


class NodeCap(threading.Event):
    """Set once ``searcher`` has searched ``cap`` nodes: a node budget that, unlike ``Limits.nodes``, binds the
    first iteration too, read at the searcher's polls (so at the same node every time)."""

    def __init__(self, searcher: Searcher, cap: int) -> None:
        super().__init__()
        self.searcher = searcher
        self.cap = cap

    def is_set(self) -> bool:
        return self.searcher.nodes >= self.cap


class Engine:
    """The engine at full strength on one game at a time, every search bounded by nodes or depth (repeatable);
    with ``cap``, a search that passes ``cap`` nodes (a depth-1 scan's quiescence can run for minutes in a
    position full of promotions) raises :class:`OverBudget`."""

    def __init__(self, cap: int | None = None) -> None:
        self.searcher = Searcher(hash_entries=1 << 17)
        self.searches = 0
        self.nodes = 0
        """Nodes of every search so far (``--game-nodes`` bounds a game's special hunt by them)."""
        self.cap = None if cap is None else NodeCap(self.searcher, cap)

    def new_game(self) -> None:
        self.searcher.new_game()

    def search(self, board: SearchBoard, limits: Limits) -> Analysis:
        result = self.searcher.search(board, limits, overhead=0.0, stop=self.cap)
        self.nodes += self.searcher.nodes
        if self.cap is not None and self.searcher.nodes >= self.cap.cap:
            raise OverBudget
        self.searches += 1
        score = result.score
        if result.mate is not None:
            score = MATE_CP - 100 * result.mate if result.mate > 0 else -MATE_CP - 100 * result.mate
        return Analysis(score, result.mate, result.move)

    def child(self, board: SearchBoard, move: Move, limits: Limits) -> Analysis:
        board.make(move)
        try:
            return self.search(board, limits)
        finally:
            board.unmake()


def key(position: Position) -> str:
    """A position without its move counters: the same puzzle whatever move number it came at."""
    return " ".join(position.to_pdtl().split()[:4])


def puzzle_id(position: Position) -> str:
    return "P" + hashlib.sha1(key(position).encode("utf-8")).hexdigest()[:9]


def reference_games(folders: Sequence[Path]) -> Iterator[tuple[str, Game]]:
    seen: set[str] = set()
    for folder in folders:
        for path in sorted(folder.glob("*.txt")) if folder.is_dir() else ():
            text = path.read_text(encoding="utf-8", errors="replace")
            if text.startswith("# source:"):
                text = text.split("\n", 1)[1] if "\n" in text else ""
            try:
                games = read_pgn(text)
            except CescacsError:
                continue
            for number, game in enumerate(games, 1):
                moves = " ".join(str(m) for m in game.moves)
                if game.moves and moves not in seen:
                    seen.add(moves)
                    yield f"{path.name} game {number}", game


def _positions(game: Game) -> Iterator[tuple[int, SearchBoard]]:
    """Each position of ``game``'s moves with the ply it follows, on one board made move by move, up to the
    first without a legal move (the game's end): what both hunts walk."""
    board = SearchBoard(game.start)
    for ply in range(game.ply + 1):
        if ply:
            board.make(game.moves[ply - 1])
        if not board.position.has_legal_moves():
            return
        yield ply, board


def self_play(
    engine: Engine,
    rng: random.Random,
    nodes: int,
    max_plies: int,
    weak_levels: tuple[int, int] = (1, 3),
    strong_levels: tuple[int, int] = (3, 7),
) -> Game:
    """One game of the engine against itself, one side at a level drawn from ``weak_levels`` (both ends included)
    and the other from ``strong_levels``, after two random plies."""
    weak, strong = rng.randint(*weak_levels), rng.randint(*strong_levels)
    levels = (weak, strong) if rng.random() < 0.5 else (strong, weak)
    game = Game(Position.initial())
    for _ in range(2):
        game.play(rng.choice(game.position.legal_moves()))
    engine.new_game()
    board = SearchBoard(game.position)
    while game.outcome is None and game.ply < max_plies:
        result = choose_move(engine.searcher, board, Limits(nodes=nodes), level(levels[game.position.turn]), rng,
                             overhead=0.0)  # fmt: skip
        if result.move is None:
            break
        game.play(result.move)
        board.make(result.move)
    game.tags["White"], game.tags["Black"] = (f"level {n}" for n in levels)
    return game


@dataclass
class Harvest:
    """What one game gave: its puzzles, in order, and why candidates were turned down."""

    puzzles: list[Puzzle] = field(default_factory=list)
    rejected: dict[str, int] = field(default_factory=dict)
    plies: int = 0

    def reject(self, why: str) -> None:
        self.rejected[why] = self.rejected.get(why, 0) + 1


class Builder:
    """Turns the positions of one game into verified puzzles."""

    def __init__(self, args: argparse.Namespace, engine: Engine) -> None:
        self.args = args
        self.engine = engine
        self.harvest = Harvest()
        self.seen: set[str] = set()
        self.last_puzzle = -MIN_GAP
        self.trying = ""
        """The special hunt's lead's theme, said before each reason a candidate was turned down."""

    def reject(self, why: str) -> None:
        self.harvest.reject(self.trying + why)

    def run(self, game: Game, source: str, rng: random.Random) -> Harvest:
        """Analyse every position of ``game``, and one stray move from each, and make the candidates into puzzles."""
        self.engine.new_game()
        self.harvest.plies = game.ply
        self.last_puzzle = -MIN_GAP
        previous: int | None = None
        for ply, board in _positions(game):
            analysis = self.engine.search(board, Limits(nodes=self.args.nodes))
            self.consider(board, analysis, previous, ply, f"{source}, ply {ply + 1}")
            previous = analysis.score
            if self.args.strays and ply >= STRAY_FROM and abs(analysis.score) < NOT_YET_WON:
                self.stray(board, analysis.score, rng, ply, source)
        return self.harvest

    def hunt(self, game: Game, source: str) -> None:
        """Mates in one left by a stray move: from each position of ``game``, every legal move that lets the
        opponent mate with exactly one move; each mating move at most once in ``HUNT_WINDOW`` plies of a game (the
        same mate found from another stray nearby is the same puzzle)."""
        prover = MateProver()
        position = game.start.copy()
        mates: set[tuple[str, int]] = set()
        for ply, played in enumerate(game.moves):
            if ply >= STRAY_FROM:
                for stray in position.legal_moves():
                    said = position.ctl_an(stray)
                    position.push(stray)
                    try:
                        found = prover.mates_in_one(position) if position.has_legal_moves() else []
                        if len(found) == 1 and key(position) not in self.seen:
                            mate = position.ctl_an(Move._make(found[0]))
                            if (mate, ply // HUNT_WINDOW) not in mates:
                                mates.add((mate, ply // HUNT_WINDOW))
                                where = f"{source}, ply {ply + 1} played {said} instead"
                                self.keep(make_puzzle(position, [Move._make(found[0])], where), ply, main_line=False)
                    finally:
                        position.pop()
            position.push(played)

    def special_hunt(self, game: Game, source: str) -> None:
        """Puzzles whose first move is special (``--special``): every position of ``game`` where the side to
        move has a special move (:func:`special_theme`) of the kinds asked for (``--kinds``), and every position
        left by a stray move that gives the opponent one: any stray opening an en passant or scornful capture,
        with ``--special-strays`` any other that leaves a promotion at hand, and with ``--castling-strays`` any
        that leaves a castling :func:`telling_castlings` keeps (without it castlings are tried on the game's own
        positions only: in an opening nearly every stray leaves one), each as :meth:`special_candidate` says."""
        self.engine.new_game()
        self.harvest.plies = game.ply
        found: set[tuple[str, int]] = set()
        budget = self.engine.nodes + self.args.game_nodes if self.args.game_nodes else None
        for ply, board in _positions(game):
            if budget is not None and self.engine.nodes > budget:
                self.reject("a game's hunt stopped by --game-nodes")
                print(f"  {source}: --game-nodes reached at ply {ply + 1}", file=sys.stderr)
                return
            position = board.position
            if self.args.derived_forks:
                for derived, said in forked_rooks(position):
                    self.special_candidate(SearchBoard(derived), f"{source}, ply {ply + 1}, derived: {said}", ply,
                                           found, others=False)  # fmt: skip
                continue
            self.special_candidate(board, f"{source}, ply {ply + 1}", ply, found)
            if ply < STRAY_FROM:
                continue
            for stray in position.legal_moves():
                if stray.kind not in OPENERS and not self.args.special_strays and not self.args.castling_strays:
                    continue
                said = position.ctl_an(stray)
                board.make(stray)
                try:
                    where = f"{source}, ply {ply + 1} played {said} instead"
                    self.special_candidate(board, where, ply, found, castles=self.args.castling_strays,
                                           others=stray.kind in OPENERS or self.args.special_strays)  # fmt: skip
                finally:
                    board.unmake()

    def special_candidate(
        self,
        board: SearchBoard,
        where: str,
        ply: int,
        found: set[tuple[str, int]],
        *,
        castles: bool = True,
        others: bool = True,
        sieve: bool = True,
    ) -> None:
        """The position on ``board`` as a puzzle whose first move is one of its special moves of ``--kinds``
        (castlings only with ``castles``, and only those :func:`telling_castlings` keeps; the other kinds only
        with ``others``): each is tried as the lead of the margin scan (:meth:`tactic_puzzle`), which gives up at
        the first other move within the margin of it, so a lead that is not the clear best costs a few depth-1
        searches; a special move that mates at once goes to the proof.  One puzzle per first move in
        ``HUNT_WINDOW`` plies of a game (``found``).  Without ``sieve`` every castling is tried (a composed
        position is few, and built for its castling)."""
        position = board.position
        if key(position) in self.seen:
            return
        kinds = self.args.kinds
        specials = [
            m
            for m in position.legal_moves()
            if special_theme(m) in kinds and (castles if m.kind == CASTLING else others)
        ]
        castlings = [m for m in specials if m.kind == CASTLING]
        if castlings and sieve:
            telling = set(telling_castlings(position, castlings))
            specials = [m for m in specials if m.kind != CASTLING or m in telling]
        if not specials:
            return
        lead_by = material(position, position.turn)
        if lead_by >= DECIDED:
            return  # the second best would keep more than NOT_YET_WON: no puzzle, and no search spent on it
        if lead_by <= -DECIDED:
            specials = [m for m in specials if m.promotion]  # only a regained piece can turn such a game
        for lead in specials:
            said = position.ctl_an(lead)
            if (said, ply // HUNT_WINDOW) in found:
                continue
            self.trying = f"{special_theme(lead)}: "
            try:
                if said.endswith("#"):
                    puzzle = self.mate_puzzle(position, 1, where)
                else:
                    puzzle = self.tactic_puzzle(board, where, lead=lead)
            except OverBudget:
                self.reject("a search over the node cap")
                continue
            finally:
                self.trying = ""
            if puzzle is None or special_theme(puzzle.line()[0]) is None:
                continue
            found.add((puzzle.moves[0], ply // HUNT_WINDOW))
            self.keep(puzzle, ply, main_line=False)
            return

    def composed(self, board: SearchBoard, source: str) -> None:
        """A composed position (``--composed``), judged as the special hunt judges a game's: a mate the engine
        sees goes to the proof (kept only when its one first move is a special move of ``--kinds``), anything
        else to :meth:`special_candidate` with every special move of ``--kinds`` as a lead, with the same
        margins, node budgets and "not yet won" rule as every other puzzle."""
        self.engine.new_game()
        analysis = self.engine.search(board, Limits(nodes=self.args.nodes))
        if analysis.mate is not None and 0 < analysis.mate <= MAX_MATE:
            puzzle = self.mate_puzzle(board.position, analysis.mate, source)
            if puzzle is not None and special_theme(puzzle.line()[0]) not in self.args.kinds:
                self.reject(f"the mate's first move {puzzle.moves[0]} is not of --kinds")
            elif puzzle is not None:
                self.keep(puzzle, 0, main_line=False)
            return
        self.special_candidate(board, source, 0, set(), sieve=False)
        if not self.harvest.puzzles and not self.harvest.rejected:  # said, so that the composer knows why
            self.reject(f"no move of --kinds tried: none at hand, or a side leads by {DECIDED} points")

    def keep(self, puzzle: Puzzle, ply: int, *, main_line: bool) -> None:
        """Add ``puzzle`` to the harvest if it passes its own check (the same as ``cescacs puzzles --check``)."""
        problems = verify(puzzle, budget=Budget(PROOF_BUDGET))
        if problems:
            self.reject("failed its own check")
            print("  rejected:", problems, file=sys.stderr)
            return
        self.seen.add(key(puzzle.start()))
        self.harvest.puzzles.append(puzzle)
        if main_line:
            self.last_puzzle = ply

    def stray(self, board: SearchBoard, score: int, rng: random.Random, ply: int, source: str) -> None:
        """A move the side to move could have played instead (drawn at random), and the position it leaves."""
        moves = board.position.legal_moves()
        move = moves[rng.randrange(len(moves))]
        said = board.position.ctl_an(move)
        board.make(move)
        try:
            if board.position.has_legal_moves():
                analysis = self.engine.search(board, Limits(nodes=self.args.nodes))
                where = f"{source}, ply {ply + 1} played {said} instead"
                self.consider(board, analysis, score, ply + 1, where, main_line=False)
        finally:
            board.unmake()

    def consider(
        self,
        board: SearchBoard,
        analysis: Analysis,
        previous: int | None,
        ply: int,
        where: str,
        *,
        main_line: bool = True,
    ) -> None:
        """Make the position on ``board`` a puzzle if it is a candidate (``previous``: the score before the last
        move, for the side that made it).  A stray move's position is off the game's line: the gap after a puzzle
        (a puzzle's own continuation) does not apply to it."""
        position = board.position
        if (main_line and ply - self.last_puzzle < MIN_GAP) or key(position) in self.seen:
            return
        blundered = previous is not None and analysis.score + previous >= BLUNDER
        already_won = previous is not None and -previous >= NOT_YET_WON
        puzzle = None
        if analysis.mate is not None and 0 < analysis.mate <= MAX_MATE:
            puzzle = self.mate_puzzle(position, analysis.mate, where)
        elif (
            analysis.mate is None
            and analysis.score >= WINNING
            and not already_won
            and (blundered or special_moves(position))
        ):
            puzzle = self.tactic_puzzle(board, where)
        if puzzle is not None:
            self.keep(puzzle, ply, main_line=main_line)

    def mate_puzzle(self, position: Position, seen: int, source: str) -> Puzzle | None:
        """A mate puzzle when the proof confirms the mate in ``seen`` the engine saw (or finds a shorter one)."""
        prover = MateProver(Budget(PROOF_BUDGET))
        start = position.copy()
        try:
            moves = prover.distance(start, seen)
            if moves is None:
                self.reject("the proof found no mate the engine saw")
                return None
            firsts = prover.first_moves(start, moves, limit=2)
            if len(firsts) != 1:
                self.reject("mate with several first moves")
                return None
            line = prover.mating_line(start, firsts[0], moves)
        except BudgetExceeded:
            self.reject("mate proof over budget")
            return None
        return make_puzzle(start, line, source)

    def scores(self, board: SearchBoard, lead: Move | None = None, margin: int = MARGIN) -> list[tuple[int, Move]]:
        """Every legal move with its score (the mover's view), best first: a depth-1 scan, the best few deeper.
        With ``lead`` (the special hunt's move) that move is scanned first, and the scan stops at the first other
        move within the margin of it: the step fails there (a few puzzles lost, none admitted), and a margin scan
        of a position with many captures costs seconds."""
        position = board.position
        moves = position.legal_moves()
        if lead is not None:  # the lead, then the moves likeliest to come within the margin of it (the same piece's)
            near = {lead.origin, *castle_rooks(lead, position.turn)}
            moves = [lead, *sorted((m for m in moves if m != lead), key=lambda m: m.origin not in near)]
        scanned: list[tuple[int, Move]] = []
        for move in moves:
            position.push(move)
            over = not position.has_legal_moves()
            mated = over and position.is_check()
            position.pop()
            if over:
                scanned.append((MATE_CP if mated else 5_000, move))
            else:
                scanned.append((-self.engine.child(board, move, Limits(depth=1)).score, move))
            if lead is not None and move != lead and scanned[-1][0] > scanned[0][0] - margin:
                return sorted(scanned, key=lambda pair: -pair[0])
        scanned.sort(key=lambda pair: -pair[0])
        deep: list[tuple[int, Move]] = []
        for score, move in scanned[:TOP]:
            if abs(score) >= 5_000:
                deep.append((score, move))
                continue
            deep.append((-self.engine.child(board, move, Limits(nodes=self.args.deep_nodes)).score, move))
            first, second = sorted(pair[0] for pair in deep)[-2:] if len(deep) > 1 else (0, MATE_CP)
            if second - first < margin:
                break  # two moves already within the margin: the step fails (a few puzzles lost, none admitted)
        return sorted([*deep, *scanned[len(deep) :]], key=lambda pair: -pair[0])

    def tactic_puzzle(self, board: SearchBoard, source: str, *, lead: Move | None = None) -> Puzzle | None:
        """A material puzzle by the engine margin; with ``lead`` (the special move the special hunt tries) its
        first move must be that move (an en passant or scornful capture, a promotion or a castling; another special
        move that scores better is tried as a lead of its own, so that one window keeps a first move once), a pawn's
        lead after it is
        enough, and a castling that wins nothing but is still the best by the margin (it saves material) is a
        one-move puzzle."""
        special = lead is not None
        start = board.position.copy()
        solver = start.turn
        line: list[Move] = []
        played = 0
        try:
            for step in range(3):
                margin = PAWN_MARGIN if step == 0 and lead is not None and lead.kind in PAWN_CAPTURES else MARGIN
                ranked = self.scores(board, lead if step == 0 else None, margin)
                if len(ranked) < 2:
                    self.reject("a single legal move")
                    return None
                (best, move), (second, _) = ranked[0], ranked[1]
                if best >= 5_000:
                    self.reject("a mate or stalemate the proof did not take")
                    return None
                if best - second < margin:
                    self.reject(f"margin too small at step {step + 1}")
                    return None
                if step == 0 and special and move != lead:  # another special move is tried as a lead of its own
                    self.reject("the best move is not the lead")
                    return None
                if step == 0 and special and move.kind == CASTLING and HOLDING <= best < SPECIAL_WINNING:
                    return make_puzzle(start, [move], source)  # the castle saves what every other move loses
                if step == 0 and (best < (SPECIAL_WINNING if special else WINNING) or second > NOT_YET_WON):
                    self.reject("not winning, or already won")
                    return None
                line.append(move)
                board.make(move)
                played += 1
                current = board.position
                if not current.has_legal_moves():
                    self.reject("the line ends the game")
                    return None
                gained = material(current, solver) - material(start, solver)
                needed = 1 if any(m.kind in (EN_PASSANT, SCORNFUL_CAPTURE) for m in line[::2]) else 2
                reply = self.engine.search(board, Limits(nodes=self.args.deep_nodes)).best
                if reply is None:
                    return None
                current.push(reply)
                kept = material(current, solver) - material(start, solver)
                current.pop()
                if gained >= needed and kept >= needed:
                    return make_puzzle(start, line, source)
                if step == 2:
                    break
                line.append(reply)
                board.make(reply)
                played += 1
                if not board.position.has_legal_moves():
                    break
        finally:
            for _ in range(played):
                board.unmake()
        self.reject("no material won within three moves")
        return None


def special_theme(move: Move) -> str | None:
    """The theme ``move`` is by its own kind (the rules core's, not its notation): ``promotion`` (a regained
    piece, on arrival or in place; awaiting promotion is none), ``en-passant``, ``scornful-pawn`` or
    ``castling``; ``None`` for any other move."""
    if move.promotion:
        return "promotion"
    return {EN_PASSANT: "en-passant", SCORNFUL_CAPTURE: "scornful-pawn", CASTLING: "castling"}.get(move.kind)


def castle_rooks(castle: Move, mover: Colour) -> tuple[int, ...]:
    """The homes of the Rooks ``castle`` moves (its token: ``KRK`` the king's Rook, ``KRD`` the queen's, ``KRR``
    both; RULES.md 8.5)."""
    token = castle.castling or ""
    return tuple(
        home
        for home, letters in ((KINGS_ROOK_HOME[mover], ("KRK", "KRR")), (QUEENS_ROOK_HOME[mover], ("KRD", "KRR")))
        if token.startswith(letters)
    )


def telling_castlings(position: Position, castlings: Sequence[Move]) -> list[Move]:
    """Those of ``castlings`` that could be a puzzle's move, by the rules alone (cheap, before any search): it
    gives check, a Rook it moves is attacked where it stands, or the castle attacks an enemy piece not attacked
    before that is worth more than a Rook or unprotected.  In an opening castling is at hand in most positions,
    and the engine is asked only about these."""
    mover = position.turn
    enemy = mover.opponent
    attacked = {h for h in (KINGS_ROOK_HOME[mover], QUEENS_ROOK_HOME[mover]) if position.attackers(h, enemy)}
    before = {h for h in position.piece_hexes(enemy) if position.attackers(h, mover)}
    telling = []
    for castle in castlings:
        if attacked & set(castle_rooks(castle, mover)):
            telling.append(castle)
            continue
        position.push(castle)
        try:
            board = position.raw_board
            if position.is_check() or any(
                position.attackers(h, mover)
                and (VALUES[abs(board[h])] > VALUES[ROOK] or not position.attackers(h, enemy))
                for h in position.piece_hexes(enemy) - before
            ):
                telling.append(castle)
        finally:
            position.pop()
    return telling


def forked_rooks(position: Position) -> Iterator[tuple[Position, str]]:
    """Derived positions (``--derived-forks``): ``position`` with ONE enemy piece it really has (not a pawn or
    the King; a Bishop only to a hex of its own colour) moved to an empty hex from which it attacks both of the
    side to move's unmoved Rooks, or one of them and another piece worth more than the attacker or unprotected,
    each with the words that say so for the puzzle's ``source``; only where a castling is at hand, and only when a
    legal castling then moves an attacked Rook.  Material stays what the game had; the side not to move is not in
    check (PDTL's own check) and the side to move neither (it could not castle); the attacker stands where the
    side to move cannot take it at all (one that can be taken is answered by taking it: a first try on the
    reference records spent all its searches on such positions).  Whether the castle is the answer is the
    margin's to say."""
    mover = position.turn
    enemy = mover.opponent
    rights = position.castling_rights(mover)
    if position.is_check() or not rights.king or not any(m.kind == CASTLING for m in position.legal_moves()):
        return  # no castling at hand, and moving an enemy piece seldom opens one
    board = position.raw_board
    rooks = [h for h, right in ((KINGS_ROOK_HOME[mover], rights.kings_rook), (QUEENS_ROOK_HOME[mover],
             rights.queens_rook)) if right and abs(board[h]) == ROOK]  # fmt: skip
    if not rooks:
        return
    for origin in sorted(position.piece_hexes(enemy)):
        kind = PieceType(abs(board[origin]))
        if kind in (PAWN, KING):
            continue
        for target in HEXES:
            if board[target] or (kind == BISHOP and HEX_COLOUR[target] != HEX_COLOUR[origin]):
                continue
            placed = list(board)
            placed[target], placed[origin] = placed[origin], 0
            text = format_pdtl(placed, mover, position.rights, None, 0, position.fullmove_number)
            try:
                derived = Position.from_pdtl(text)
            except PDTLError:  # the enemy piece was shielding its own King
                continue
            if derived.is_check() or derived.attackers(target, mover):
                continue  # castling is illegal in check; an attacker the side to move can take is no fork to flee
            victims = [h for h in derived.piece_hexes(mover) if target in derived.attackers(h, enemy)]
            forked = [h for h in victims if h in rooks]
            others = [h for h in victims if h not in forked and abs(placed[h]) != KING and (
                VALUES[abs(placed[h])] > VALUES[kind] or not derived.attackers(h, mover))]  # fmt: skip
            if (
                forked
                and len(forked) + len(others) >= 2
                and any(set(castle_rooks(m, mover)) & set(forked) for m in derived.legal_moves() if m.kind == CASTLING)
            ):
                name = f"{enemy.name.lower()} {kind.name.lower()}"
                yield derived, f"the {name} moved from {HEX_NAMES[origin]} to {HEX_NAMES[target]}"


class ComposedError(ValueError):
    """A line of a ``--composed`` file that is not a composed position: the message names the file and line."""


@dataclass(frozen=True)
class Composed:
    """One position of a ``--composed`` file: its PDTL, the idea it was built for (the puzzle's ``source`` says
    "composed: <idea>") and the line it stands on."""

    pdtl: str
    idea: str
    line: int


MAX_IDEA = 190
"""The longest idea: a puzzle's ``source`` is at most 200 characters, "composed: " included."""


@functools.cache
def pawn_reach(colour: Colour) -> frozenset[int]:
    """Every hex a pawn of ``colour`` can stand on: its starting hexes and what its forward moves reach from them
    (a pawn never goes back, so a white pawn on line 2 is a position no game reaches)."""
    board = Position.initial().raw_board
    sign = 1 if colour == Colour.WHITE else -1
    reached = {h for h in HEXES if board[h] == sign * PAWN}
    todo = list(reached)
    while todo:
        h = todo.pop()
        ahead = (*geometry.PAWN_FORWARD[colour][h][:1], *geometry.PAWN_OBLIQUE[colour][h])
        for target in (*ahead, *geometry.PAWN_CAPTURES[colour][h]):
            if target not in reached:
                reached.add(target)
                todo.append(target)
    return frozenset(reached)


def composed_position(text: str) -> tuple[Position, str]:
    """One line of a composed-positions file, ``PDTL # the idea``, as the position and its idea; ``ValueError``
    saying what is wrong.  A composed position must be one a game could reach, as every other puzzle's is: PDTL
    read strictly (castling rights only for an unmoved King and Rook on their home hexes, the side not to move not
    in check, no more pieces than a side starts with), and no pawn where no pawn of its side can come."""
    pdtl, hash_sign, idea = (part.strip() for part in text.partition("#"))
    if not hash_sign or not idea:
        raise ValueError("a composed position is 'PDTL # the idea it was built for': the idea is missing")
    if len(idea) > MAX_IDEA:
        raise ValueError(f"the idea is longer than {MAX_IDEA} characters")
    try:
        position = Position.from_pdtl(pdtl, strict=True)
    except CescacsError as error:
        raise ValueError(f"not a legal position: {error}") from None
    board = position.raw_board
    for colour in Colour:
        sign = 1 if colour == Colour.WHITE else -1
        stray = sorted(h for h in HEXES if board[h] == sign * PAWN and h not in pawn_reach(colour))
        if stray:
            side = colour.name.lower()
            raise ValueError(f"a {side} pawn on {HEX_NAMES[stray[0]]}, where no {side} pawn can come")
    return position, idea


def read_composed(path: Path) -> list[Composed]:
    """The positions of a composed-positions file (``--composed``): one a line (:func:`composed_position`);
    blank lines and lines starting with ``#`` are comments.  :class:`ComposedError` names the file and line of
    the first that is not a composed position, or repeats one."""
    entries: list[Composed] = []
    seen: dict[str, int] = {}
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            position, idea = composed_position(text)
            if key(position) in seen:
                raise ValueError(f"the same position as line {seen[key(position)]}")
        except ValueError as error:
            raise ComposedError(f"{path}:{number}: {error}") from None
        seen[key(position)] = number
        entries.append(Composed(position.to_pdtl(), idea, number))
    return entries


def special_moves(position: Position) -> bool:
    """A promotion, an en passant or scornful capture, or a castling is among the legal moves."""
    return any(special_theme(m) for m in position.legal_moves())


def make_puzzle(start: Position, line: list[Move], source: str) -> Puzzle:
    position = start.copy()
    written = []
    for move in line:
        written.append(position.ctl_an(move))
        position.push(move)
    themes = solution_themes(start, line)
    return Puzzle(puzzle_id(start), start.to_pdtl(), tuple(written), themes, starting_rating(start, line, themes),
                  source)  # fmt: skip


Job = tuple[str, int]
"""("record", index into the reference games), ("self-play", game number) or ("composed", index into the
``--composed`` file's positions)."""


def work(job: Job, args: argparse.Namespace) -> tuple[Job, str, Harvest]:
    """One game made and harvested (in a worker process)."""
    kind, number = job
    engine = Engine(args.node_cap if args.special or args.composed else None)
    began = time.monotonic()
    if kind == "composed":
        entry = read_composed(args.composed)[number]
        builder = Builder(args, engine)
        builder.composed(SearchBoard(Position.from_pdtl(entry.pdtl)), f"composed: {entry.idea}")
        harvest = builder.harvest
        found = ", ".join(f"{p.moves[0]} {list(p.themes)}" for p in harvest.puzzles) or f"none {harvest.rejected}"
        said = f"{args.composed.name}:{entry.line} ({entry.idea}): {found} ({time.monotonic() - began:.0f} s)"
        return job, said, harvest
    if kind == "record":
        source, game = list(reference_games(RECORD_FOLDERS))[number]
    else:
        rng = random.Random(args.seed * 100_003 + number)
        game = self_play(engine, rng, args.play_nodes, args.max_plies, args.weak, args.strong)
        source = f"self-play seed {args.seed}, game {number} ({game.tags['White']} - {game.tags['Black']})"
    builder = Builder(args, engine)
    if args.special:
        builder.special_hunt(game, source)
    elif args.analyse_games is None or number < args.analyse_games or kind == "record":
        builder.run(game, source, random.Random(f"{args.seed} {kind} {number}"))
    if args.hunt and not args.special:
        builder.hunt(game, source)
    harvest = builder.harvest
    said = (
        f"{source}: {game.ply} plies, {len(harvest.puzzles)} puzzles ({time.monotonic() - began:.0f} s, "
        f"{engine.nodes:,} nodes)"
    )
    return job, said, harvest


def _work(packed: tuple[Job, argparse.Namespace]) -> tuple[Job, str, Harvest]:
    return work(*packed)


def build(args: argparse.Namespace) -> list[Puzzle]:
    if args.composed:  # only the composed positions: no records, no games
        records = 0
        jobs: list[Job] = [("composed", n) for n in range(len(read_composed(args.composed)))]
    else:
        records = 0 if args.no_records else sum(1 for _ in reference_games(RECORD_FOLDERS))
        jobs = [("record", n) for n in range(records)] + [
            ("self-play", n) for n in range(args.first_game, args.first_game + args.games)
        ]
    results: dict[Job, Harvest] = {}
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
    with multiprocessing.Pool(args.jobs) as pool:
        for job, said, harvest in pool.imap_unordered(_work, [(job, args) for job in jobs]):
            results[job] = harvest
            print(f"[{len(results)}/{len(jobs)}] {said}", flush=True)
            if deadline is not None and time.monotonic() > deadline:
                pool.terminate()
                break
    done = next((n for n, job in enumerate(jobs) if job not in results), len(jobs))
    if done < len(jobs):  # only the first games that all finished: what --games would give again
        games = max(0, done - records)
        print(f"time is up: the set is that of the first {games} games (--games {games} gives it again)")
    puzzles: dict[str, Puzzle] = {}
    rejected: dict[str, int] = {}
    for job in jobs[:done]:  # in the jobs' order, whatever order they finished in: the same set every time
        for puzzle in results[job].puzzles:
            puzzles.setdefault(puzzle.id, puzzle)
        for why, count in results[job].rejected.items():
            rejected[why] = rejected.get(why, 0) + count
    print("rejected:", rejected, file=sys.stderr)
    return sorted(puzzles.values(), key=lambda p: (p.rating, p.id))


def level_range(text: str) -> tuple[int, int]:
    """``--weak`` and ``--strong``: ``LO-HI`` (or one level), levels 1-10, low first."""
    low, _, high = text.partition("-")
    try:
        bounds = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: levels LO-HI, such as 2-4") from None
    if not 1 <= bounds[0] <= bounds[1] <= 10:
        raise argparse.ArgumentTypeError(f"{text!r}: levels from 1 to 10, the lower first")
    return bounds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="self-play games (default 240)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--first-game", type=int, default=0, help="number of the first self-play game (default 0)")
    parser.add_argument("--add", action="store_true", help="add to the puzzles already in --out (a later run)")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    parser.add_argument("--nodes", type=int, default=2_000, help="nodes of each position's analysis")
    parser.add_argument("--deep-nodes", type=int, default=4_000, help="nodes of the margin's deeper searches")
    parser.add_argument("--play-nodes", type=int, default=1_500, help="nodes a self-play move")
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument("--weak", type=level_range, default=(1, 3), metavar="LO-HI",
                        help="the levels one side of a self-play game is drawn from (default 1-3)")  # fmt: skip
    parser.add_argument("--strong", type=level_range, default=(3, 7), metavar="LO-HI",
                        help="the levels the other side is drawn from (default 3-7)")  # fmt: skip
    parser.add_argument("--strays", action=argparse.BooleanOptionalAction, default=True,
                        help="also try one random move instead of each move (default: yes)")  # fmt: skip
    parser.add_argument("--hunt", action=argparse.BooleanOptionalAction, default=True,
                        help="also look for mates in one left by any stray move (default: yes)")  # fmt: skip
    parser.add_argument("--analyse-games", type=int, metavar="N",
                        help="analyse only the first N self-play games with the engine (default: all)")  # fmt: skip
    parser.add_argument("--special", action="store_true",
                        help="only the special hunt: puzzles whose first move is an en passant or scornful capture, "
                        "a promotion or a castling")  # fmt: skip
    parser.add_argument("--node-cap", type=int, default=200_000,
                        help="in the special hunt, the most nodes of any one search: a candidate whose search "
                        "passes it is dropped (default 200000)")  # fmt: skip
    parser.add_argument("--game-nodes", type=int, default=0,
                        help="in the special hunt, stop a game's hunt at the first position after its searches "
                        "passed this many nodes (0: no bound; a game full of promotions can take many minutes)",
                        )  # fmt: skip
    parser.add_argument("--special-strays", action=argparse.BooleanOptionalAction, default=True,
                        help="in the special hunt, also the stray moves that leave a promotion at hand, not only "
                        "those opening an en passant or scornful capture (default: yes)")  # fmt: skip
    parser.add_argument("--castling-strays", action=argparse.BooleanOptionalAction, default=False,
                        help="in the special hunt, also the castlings of the positions stray moves leave (default: "
                        "no)")  # fmt: skip
    parser.add_argument("--kinds", nargs="+", choices=SPECIAL_KINDS, default=SPECIAL_KINDS, metavar="KIND",
                        help="in the special hunt, only these first moves: " + ", ".join(SPECIAL_KINDS)
                        + " (default: all)")  # fmt: skip
    parser.add_argument("--derived-forks", action="store_true",
                        help="in the special hunt, only castlings of derived positions: where a castling is at hand, "
                        "one enemy piece moved to a hex attacking an unmoved Rook and another piece")  # fmt: skip
    parser.add_argument("--composed", type=Path, metavar="FILE",
                        help="instead of records and games, the composed positions of FILE (one a line, 'PDTL # the "
                        "idea'), judged as the special hunt judges a game's positions")  # fmt: skip
    parser.add_argument("--no-records", action="store_true", help="self-play only")
    parser.add_argument("--minutes", type=float, default=0, help="stop after this long (0: no bound)")
    parser.add_argument("--out", type=Path, default=BUNDLED)
    args = parser.parse_args()
    if args.composed:
        try:
            read_composed(args.composed)
        except (OSError, ComposedError) as error:
            parser.error(str(error))
    began = time.monotonic()
    puzzles = build(args)
    if args.add and args.out.exists():  # a later run's games added to the set already there
        kept = {p.id: p for p in read_puzzle_file(args.out)}
        for puzzle in puzzles:
            kept.setdefault(puzzle.id, puzzle)
        puzzles = sorted(kept.values(), key=lambda p: (p.rating, p.id))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(p.to_json() + "\n" for p in puzzles), encoding="utf-8")
    counts: dict[str, int] = {}
    for puzzle in puzzles:
        for theme in puzzle.themes:
            counts[theme] = counts.get(theme, 0) + 1
    print(f"wrote {len(puzzles)} puzzles to {args.out} in {time.monotonic() - began:.0f} s: {counts}")


if __name__ == "__main__":
    main()
