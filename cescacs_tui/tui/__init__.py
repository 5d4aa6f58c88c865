"""The Textual front end: the app, its screens, widgets and dialogs, on the UI-free game session.

* :mod:`.app`: :class:`~.app.CescacsApp` (``cescacs``), its themes, settings
  and start-up; :mod:`.joined`: the same app on a game held by a coordinator
  (``cescacs join``);
* :mod:`.screens`: the game screen, and the game screen of a joined game;
* :mod:`.widgets`: the board, the side panels, the move box, the message line;
* :mod:`.dialogs`: choices and confirmations, files, the new game, the help;
* beside them, what they share: the board's geometry (:mod:`.board_layout`,
  :mod:`.view`), the themes, the terminal driver, the clipboard, text from
  outside made safe to show, translated key bindings, records of a visitor.

Nothing here decides about the game: the screens show what the session's
commands return (:class:`~cescacs_tui.session.Feedback`).
"""
