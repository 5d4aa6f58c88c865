"""What the app keeps on disk, and where: nothing a player has on disk is ever lost or can stop the app.

* :mod:`.store`: the :class:`~.store.GameStore` protocol, what a session, a
  remote coordinator and a server ask of the place their game is kept;
  :mod:`.autosave_store`: the one that keeps it in this machine's files, and
  hands the autosave over between two processes;
* :mod:`.storage`: the data and config directories, atomic writes (the
  directory fsynced too), :func:`~.storage.read_limited` for files from
  outside, :func:`~.storage.keep_aside` for files that cannot be used;
* :mod:`.settings` (with the vocabularies of :mod:`.choices`): the player's
  preferences;
* :mod:`.autosave`: the game in progress; :mod:`.slots` and :mod:`.lock`:
  which autosave file a process owns, so two instances never write the same;
* :mod:`.archive`: every finished game, one record each, under ``games/``;
* :mod:`.records`: ``.ctl-pgn`` files opened and saved by the player;
* :mod:`.engine_slots`: the engine places a server shares among its visitors;
* :mod:`.progress`: the :class:`~.progress.ProgressStore` of what a learner
  earns (lessons, drill, puzzle rating, personal deck), one file shared by
  every process on a data directory under :func:`~.lock.exclusive`.

The rules core (:mod:`cescacs_tui.core`) reads and writes text; this package
owns files, paths and crash safety.  It has no user-interface imports (a test
enforces it, relative imports included).
"""
