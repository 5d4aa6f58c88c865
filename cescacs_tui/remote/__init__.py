"""One game, two places: a coordinator holding the game, clients that play or watch it, over TCP or SSH.

* :mod:`.protocol` — the JSON-lines protocol (``docs/remote-protocol.md``): checked messages, framing, pacing;
* :mod:`.coordinator` — the authoritative game (a :class:`~cescacs_tui.session.GameSession` played here, with a
  store), its seats (:mod:`.seats`) and clients; :mod:`.store` keeps its autosave and archive;
* :mod:`.tcp` — the coordinator on a TCP port (``cescacs host``);
* :mod:`.client` — a client's link to a coordinator, reconnecting;
* :mod:`.port` — a client session's port: the session's commands, sent as requests, and the snapshots applied;
* :mod:`.ssh_server` — ``cescacs serve-ssh``: rooms over SSH (asyncssh, the ``[ssh]`` extra).

No front end lives here and nothing here imports Textual or Rich: the joined game's screen is
:mod:`cescacs_tui.tui.screens.remote`, its plain lines :mod:`cescacs_tui.plain.remote_client`, and the three
subcommands :mod:`cescacs_tui.cli.remote` (``tests/project/test_layers.py`` holds every package to its contract).
"""
