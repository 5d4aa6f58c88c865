"""The Textual front end: widgets and screens built on :mod:`cescacs_tui.core`."""
