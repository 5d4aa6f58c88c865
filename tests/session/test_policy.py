"""One policy decides what the person at the keyboard may do with the machine: every action × every launch kind.

The owner (``cescacs``; ``cescacs join``) uses their own machine; a visitor
of ``cescacs-web`` or ``cescacs serve-ssh`` gets the record and gives records
through the browser or their own terminal, never a file, the clipboard, a
program or a path of the server, and engines only in the server's few places.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cescacs_tui.data.engine_slots import EngineSlots
from cescacs_tui.i18n import LANGUAGES, set_language
from cescacs_tui.session.actions import ACTIONS
from cescacs_tui.session.policy import VISITOR_VARIABLE, LaunchKind, Need, Policy, PolicyError, Route

PLACES = EngineSlots(Path("/nonexistent/places"), 2)
POLICIES = {
    "local": Policy(LaunchKind.LOCAL),
    "joined": Policy(LaunchKind.JOINED),
    "web visitor": Policy(LaunchKind.WEB, PLACES),
    "ssh visitor": Policy(LaunchKind.SSH, PLACES),
}
KINDS = tuple(POLICIES)
REFUSED = "refused"

OWNER_AND_VISITORS: dict[Need, tuple[Route | str, ...]] = {
    Need.RECORD_OUT: (Route.HOST_FILE, Route.HOST_FILE, Route.DOWNLOAD, Route.TERMINAL),
    Need.RECORD_IN: (Route.HOST_FILE, Route.HOST_FILE, Route.PASTE_OR_UPLOAD, Route.PASTE),
    Need.CLIPBOARD: (Route.TERMINAL_AND_SYSTEM, Route.TERMINAL_AND_SYSTEM, Route.TERMINAL, Route.TERMINAL),
    Need.SCREENSHOT: (Route.HOST_FILE, Route.HOST_FILE, Route.DOWNLOAD, REFUSED),
    Need.SETTINGS: (Route.OWN_SETTINGS, Route.OWN_SETTINGS, Route.VISITOR_SETTINGS, Route.VISITOR_SETTINGS),
    Need.ENGINE: (Route.OWN_ENGINE, Route.OWN_ENGINE, Route.SHARED_ENGINE, Route.SHARED_ENGINE),
    Need.ARCHIVE: (Route.HOST_FILE, Route.HOST_FILE, REFUSED, REFUSED),  # a visitor browses no file of the host
    # the puzzle rating and deck: a visitor's in the folder the server gives them (their CESCACS_DATA_DIR)
    Need.PROGRESS: (Route.HOST_FILE, Route.HOST_FILE, Route.VISITOR_SETTINGS, Route.VISITOR_SETTINGS),
}
"""For each need, how each launch kind (local, joined, web visitor, SSH visitor) gets it, or that it is refused."""

NEEDS = {
    "new_game": {Need.SETTINGS},
    "hint": {Need.ENGINE},
    "analysis": {Need.ENGINE},
    "copy_pgn": {Need.CLIPBOARD},
    "copy_pdtl": {Need.CLIPBOARD},
    "save": {Need.RECORD_OUT},
    "open": {Need.RECORD_IN},
    "screenshot": {Need.SCREENSHOT},
    "archive": {Need.ARCHIVE},
    "review_game": {Need.ENGINE},
    "puzzles": {Need.PROGRESS},
    **{name: {Need.SETTINGS} for name in ("next_theme", "piece_set", "board_layout", "auto_flip", "vim_keys", "bell")},
    "language": {Need.SETTINGS},
    "lessons": {Need.PROGRESS},
}
"""What each action of the table needs from the machine; every other action needs nothing of it."""


def test_each_action_states_what_it_needs_from_the_machine() -> None:
    assert {name: set(action.needs) for name, action in ACTIONS.items() if action.needs} == NEEDS


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", list(ACTIONS))
def test_every_action_for_every_launch_kind_is_allowed_or_refused_with_its_reason(name: str, kind: str) -> None:
    policy = POLICIES[kind]
    action = ACTIONS[name]
    expected = [OWNER_AND_VISITORS[need][KINDS.index(kind)] for need in action.needs]
    decisions = [policy.decide(need) for need in action.needs]
    assert [d.route if d.allowed else REFUSED for d in decisions] == expected
    refusal = policy.refusal(action)
    assert (refusal is not None) == (REFUSED in expected)
    if refusal is not None:
        assert refusal.strip() and all(d.route is None for d in decisions if not d.allowed)


def test_the_refusals_are_said_in_every_language() -> None:
    said = {}
    try:
        for code in LANGUAGES:
            set_language(code)
            said[code] = POLICIES["ssh visitor"].refusal(ACTIONS["screenshot"])
    finally:
        set_language("en")
    assert said["en"] == "a screenshot would be a file on the server: your terminal can take one of its window"
    assert len(set(said.values())) == len(LANGUAGES), said


def test_a_visitor_starts_an_engine_only_in_the_servers_places_and_a_watcher_none_unless_allowed() -> None:
    hint = ACTIONS["hint"]
    assert Policy(LaunchKind.SSH).refusal(hint) == "this server runs no engine for its visitors"
    assert Policy(LaunchKind.WEB, EngineSlots(PLACES.folder, 0)).refusal(hint) is not None
    watching = POLICIES["ssh visitor"].refusal(hint, watching=True)
    assert watching == "this server runs engines for its players only: watchers start none"
    allowed = Policy(LaunchKind.SSH, PLACES, watchers_use_engines=True)
    assert allowed.refusal(hint, watching=True) is None
    assert POLICIES["local"].refusal(hint, watching=True) is None  # the owner's machine, the owner's engines


def test_a_visitor_never_runs_the_program_of_a_settings_file() -> None:
    assert POLICIES["local"].engine_setting("/opt/engine --fast") == "/opt/engine --fast"
    assert POLICIES["joined"].engine_setting("/opt/engine --fast") == "/opt/engine --fast"
    for kind in ("web visitor", "ssh visitor"):
        assert POLICIES[kind].engine_setting("touch /tmp/pwned") == ""


def test_deliveries_and_urls_reach_the_owner_or_the_browser_never_a_servers_disk_or_browser() -> None:
    assert [POLICIES[kind].delivers for kind in KINDS] == [True, True, True, False]
    assert [POLICIES[kind].opens_urls for kind in KINDS] == [True, True, True, False]


def test_a_server_hands_its_visitor_the_policy_once_and_a_bad_description_is_refused(tmp_path: Path) -> None:
    places = EngineSlots(tmp_path / "places", 3)
    handed = Policy(LaunchKind.SSH, places, watchers_use_engines=True).environment()
    read = Policy.from_environment(handed, LaunchKind.JOINED, folders=[tmp_path / "visitor"])
    assert (read.kind, read.engines, read.watchers_use_engines) == (LaunchKind.SSH, places, True)
    assert str(tmp_path / "visitor") in read.hidden and str(Path.home()) in read.hidden
    assert Policy.from_environment({}, LaunchKind.JOINED) == Policy(LaunchKind.JOINED)
    bad_descriptions = (
        "", "{", "[]", '{"kind": "local"}', '{"kind": "root"}', '{"kind": "web", "engines": {"count": 1}}',
        '{"kind": "ssh", "watchers_use_engines": "yes"}', json.dumps({"kind": "web", "engines": 5}),
    )  # fmt: skip
    for bad in bad_descriptions:
        with pytest.raises(PolicyError):
            Policy.from_environment({VISITOR_VARIABLE: bad}, LaunchKind.LOCAL)


def test_a_visitor_reads_no_path_of_the_server(tmp_path: Path) -> None:
    folder = tmp_path / "web" / "ab12" / "data"
    policy = Policy.from_environment(Policy(LaunchKind.WEB).environment(), LaunchKind.LOCAL, folders=[folder])
    said = f"Black mates (saved in {folder}/games/2026-01-01-Ana-Bo.ctl-pgn); home: {Path.home()}"
    hidden = policy.hide_paths(said)
    assert str(folder) not in hidden and str(Path.home()) not in hidden
    assert "games/2026-01-01-Ana-Bo.ctl-pgn" in hidden
    assert POLICIES["local"].hide_paths(said) == said


@pytest.mark.slow
def test_the_servers_engine_places_are_counted_across_processes(tmp_path: Path) -> None:
    places = EngineSlots(tmp_path, 2)
    places.prepare()
    first, second = places.take(), places.take()
    assert first is not None and second is not None and places.take() is None
    first.release()
    first.release()  # twice does nothing
    third = places.take()
    assert third is not None and places.take() is None
    import subprocess
    import sys

    code = (
        "import sys; from pathlib import Path; from cescacs_tui.data.engine_slots import EngineSlots\n"
        f"print(EngineSlots(Path({str(tmp_path)!r}), 3).take() is not None)"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert other.stdout.strip() == "True"  # a third place, in another process; the two taken here are not free
    second.release()
    third.release()
