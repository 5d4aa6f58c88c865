"""``cescacs learn``: the lessons in the terminal, an app of their own with the player's theme."""

from __future__ import annotations

from ..data.progress import ProgressStore, progress_store
from ..data.settings import Settings
from ..i18n import _
from ..learn.lessons import LESSONS, Lesson, find_lesson
from ..session.policy import Policy
from .keymap import keymap
from .screens.lessons import LessonScreen
from .themes import BoardHostApp, known_themes

__all__ = ["LearnApp", "run_learn_app"]


class LearnApp(BoardHostApp[None]):
    """The lessons: ``lesson`` first (default: the first not yet done), the progress kept in ``store``."""

    TITLE = "C'escacs"

    def __init__(self, store: ProgressStore, lesson: Lesson | None = None, *, settings: Settings | None = None) -> None:
        settings = settings or Settings()
        super().__init__(theme=settings.theme)
        self.settings = settings
        self.store = store
        done = store.progress.lessons
        self.first = lesson or next((each for each in LESSONS if each.key not in done), LESSONS[0])

    @property
    def lesson_screen(self) -> LessonScreen:
        """The lesson screen, under any dialog."""
        screen = self.screen_stack[1]
        assert isinstance(screen, LessonScreen)
        return screen

    def on_mount(self) -> None:
        self.set_keymap(keymap(vim_keys=self.settings.vim_keys, keys=self.settings.keys))  # as the game's app does
        self.sub_title = _("Lessons")
        self.push_screen(LessonScreen(self.store, self.first), lambda _left: self.exit())
        for notice in self.store.notices:
            self.notify(notice, severity="warning", markup=False)


def run_learn_app(policy: Policy, lesson: str | None = None) -> int:
    """Start the lessons' app (``lesson``: a number or a name to begin with); the policy says where the progress is
    kept."""
    from ..core.errors import CescacsError
    from ..core.safe_text import printable

    first = None if lesson is None else find_lesson(lesson)
    if lesson is not None and first is None:
        said = _("{text}: no such lesson (a number from 1 to {last}, or a name)")
        raise CescacsError(said.format(text=printable(lesson, 40), last=len(LESSONS)))
    app = LearnApp(progress_store(policy.progress_path()), first, settings=Settings.load(themes=known_themes()))
    app.run()
    return app.return_code or 0
