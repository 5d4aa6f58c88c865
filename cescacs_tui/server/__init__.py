"""The C'escacs server's foundation: accounts by SSH key, seeks and challenges, live and correspondence games,
ratings, kept in a database; no user interface (it imports the core, data and session layers only).

Its modules, from the bottom up:

- :mod:`.model`: the records every backend returns (accounts, keys, games, moves, ratings, changes) and the
  errors it raises;
- :mod:`.storage`: the :class:`~.storage.Storage` protocol (asynchronous, one transaction per call, conditional
  writes) and :func:`~.storage.open_storage`;
- :mod:`.migrations`: the schema as ordered, versioned migrations, one list for every database;
- :mod:`.rows`: the rows every backend reads, made into records; :mod:`.fanout`: every process told what
  changed;
- :mod:`.sqlite`: the SQLite backend (one process); :mod:`.postgres`: the PostgreSQL backend (one lobby for
  many processes, on many machines);
- :mod:`.names` (with the generated :mod:`.confusables` table): players' names, and which look alike;
- :mod:`.keys` (SSH public keys and their fingerprints) and :mod:`.codes` (invitation and key-link codes);
- :mod:`.games`: a stored game in the rules core: replayed, timed, written as a CTL-PGN record;
- :mod:`.lobby`: what a player may do, decided and stored; refusals carry their reason;
- :mod:`.commands`: the commands for scripts (``ssh host play 12 E7-E13``): argv in, text and a status out;
- :mod:`.notify`: the operator's notification hook, run when it becomes a player's move.

The Glicko-2 ratings themselves are :mod:`cescacs_tui.data.ratings`, which the puzzles will share.
"""
