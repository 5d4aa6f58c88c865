"""Learning and improving: game review and puzzles.

Like the session, nothing here draws: each module gives plain data and
words a front end shows (``cescacs review`` and ``cescacs puzzles`` now, the
Textual screens and the plain mode later), and the long job (a review) is
asynchronous, reports its progress and can be cancelled.  This package sits
above the engine (a review talks to an engine process through its client;
only the puzzle generator, a script, runs the search in-process) and the
data layer, beside the session:

* :mod:`.scoring`: expected score from an engine score, the classes of a
  mistake and accuracy (the formulas are documented there);
* :mod:`.review`: a game analysed ply by ply; :mod:`.annotate`: the review
  written into the record and read back; :mod:`.review_words`: its sentences
  and its JSON;
* :mod:`.proof`: forced mates proved by enumeration; :mod:`.themes`: a
  puzzle's themes and starting rating; :mod:`.puzzles`: the bundled set, its
  check, a player's attempt and hints.

Nothing is imported here: each module is loaded when it is used.
"""

from typing import Final

DEFAULT_MOVETIME: Final = 0.5
"""Seconds of search per position of a review: a 100-ply game in under a minute."""
