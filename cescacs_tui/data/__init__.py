"""What the app keeps on disk: settings, the autosave, game records, and where they live.

The rules core (:mod:`cescacs_tui.core`) reads and writes text; this package
owns files, paths and crash safety.  It has no user-interface imports.
"""
