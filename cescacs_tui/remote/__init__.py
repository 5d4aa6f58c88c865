"""One game, two places: a coordinator holding the game, clients that play or watch it, over TCP or SSH.

* :mod:`.protocol` — the JSON-lines protocol (``docs/remote-protocol.md``): checked messages, framing, pacing;
* :mod:`.coordinator` — the authoritative game (a :class:`~cescacs_tui.session.GameSession` with a store),
  its seats (:mod:`.seats`) and clients; :mod:`.store` keeps its autosave and archive;
* :mod:`.tcp` — the coordinator on a TCP port (``cescacs host``);
* :mod:`.client` — a client's link to a coordinator, reconnecting;
* :mod:`.session` — the client's session: the local commands, sent as requests;
* :mod:`.screen` — the game screen and app of a client (``cescacs join``);
* :mod:`.ssh_server` — ``cescacs serve-ssh``: rooms over SSH (asyncssh, the ``[ssh]`` extra);
* :mod:`.commands` — the three subcommands.

Everything but :mod:`.screen` is free of Textual and Rich.
"""
