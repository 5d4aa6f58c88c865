"""How many visitors a server holds, and what each costs: memory (PSS) per visitor's app, the server's own.

    python benchmarks/visitors.py                 # cescacs-web with 8 browsers, serve-ssh with 32 visitors
    python benchmarks/visitors.py --web 4 --ssh 8

Each visitor is real: a browser is an aiohttp websocket speaking the page's
protocol to ``cescacs-web``; an SSH visitor is an asyncssh client with a
pseudo-terminal, two to a room of ``cescacs serve-ssh``.  Once every visitor
sees their board, the proportional set size (PSS, from
``/proc/PID/smaps_rollup``: shared pages divided among the processes sharing
them) of the server and of each visitor's app process is read, and one
visitor plays a move: the time from its keys to the answer on its screen,
with everyone connected, is the figure for "still answering".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PATIENCE = 120.0
ESCAPES = re.compile(rb"\x1b(?:\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def pss_megabytes(pid: int) -> float:
    text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    found = re.search(r"^Pss:\s+(\d+) kB", text, re.M)
    assert found is not None
    return int(found.group(1)) / 1024


def descendants(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += [int(child), *descendants(int(child))]
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(folder: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "CESCACS"))}
    return clean | {"CESCACS_DATA_DIR": str(folder / "data"), "CESCACS_CONFIG_DIR": str(folder / "config")}


def wait_for_line(process: subprocess.Popen[bytes], pattern: bytes) -> bytes:
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + PATIENCE
    while pattern not in seen:
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit(f"the server did not start: {seen[-500:]!r}")
        seen += os.read(process.stdout.fileno(), 4096)
    return seen


def visible(chunks: list[bytes]) -> str:
    return re.sub(r"\s", "", ESCAPES.sub(b"", b"".join(chunks)).decode("utf-8", "replace"))


def report(kind: str, count: int, server: int, apps: list[int], seconds: float, answer: float) -> None:
    sizes = [pss_megabytes(pid) for pid in apps]
    print(f"{kind}: {count} visitors held, every board drawn in {seconds:.1f} s")
    print(f"  the server itself: {pss_megabytes(server):.1f} MB PSS")
    if sizes:
        print(
            f"  each visitor's app: {statistics.median(sizes):.1f} MB PSS median "
            f"({min(sizes):.1f}-{max(sizes):.1f}), {sum(sizes):.0f} MB for all {len(sizes)} processes"
        )
    print(f"  a move typed with everyone connected, answered on its screen in {answer * 1000:.0f} ms")


# --- cescacs-web ------------------------------------------------------------------------------------


async def web(count: int, folder: Path) -> None:
    import aiohttp

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui.web", "--port", str(port), "--max-sessions", str(count),
         "--state-dir", str(folder / "browsers")],
        env=environment(folder), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    origin = f"http://127.0.0.1:{port}"
    sessions: list[aiohttp.ClientSession] = []
    try:
        wait_for_line(server, origin.encode())
        started = time.monotonic()
        screens: list[list[bytes]] = []
        sockets = []
        for _ in range(count):
            session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            sessions.append(session)
            async with session.get(origin + "/"):
                pass
            ws = await session.ws_connect(f"{origin}/ws?width=120&height=40", headers={"Origin": origin})
            sockets.append(ws)
            screens.append([])

        async def until(index: int, text: str) -> None:
            deadline = time.monotonic() + PATIENCE
            while text not in visible(screens[index]):
                message = await asyncio.wait_for(sockets[index].receive(), deadline - time.monotonic())
                if message.type == aiohttp.WSMsgType.BINARY:
                    screens[index].append(message.data)

        await asyncio.gather(*(until(n, "Whitetomove") for n in range(count)))
        seconds = time.monotonic() - started
        apps = [pid for pid in descendants(server.pid) if b"cescacs_tui" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        typed = time.monotonic()
        for key in "/e7-e13\r":
            await sockets[-1].send_str(json.dumps(["stdin", key]))
        await until(count - 1, "WhiteplayedE7-E13")
        report("cescacs-web", count, server.pid, apps, seconds, time.monotonic() - typed)
        for ws in sockets:
            await ws.close()
    finally:
        for session in sessions:
            await session.close()
        server.terminate()
        server.wait(timeout=PATIENCE)


# --- cescacs serve-ssh ------------------------------------------------------------------------------


async def ssh(count: int, folder: Path) -> None:
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    key.write_private_key(str(folder / "host"))
    visitors = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(count)]
    rooms = (count + 1) // 2
    server = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "serve-ssh", "--port", "0", "--host-key", str(folder / "host"),
         "--max-visitors", str(count), "--max-rooms", str(rooms)],
        env=environment(folder), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    connections = []
    try:
        said = wait_for_line(server, b"Visitors run")
        port = int(re.search(rb"127\.0\.0\.1:(\d+)", said).group(1))  # type: ignore[union-attr]
        started = time.monotonic()
        screens: list[list[bytes]] = []
        processes = []
        for number, visitor in enumerate(visitors):
            connection = await asyncssh.connect(
                "127.0.0.1", port, username=f"v{number}", client_keys=[visitor], known_hosts=None, config=None
            )
            connections.append(connection)
            process = await connection.create_process(
                f"room{number // 2}", term_type="xterm-256color", term_size=(120, 40), encoding=None
            )
            processes.append(process)
            screens.append([])

        async def until(index: int, text: str) -> None:
            deadline = time.monotonic() + PATIENCE
            while text not in visible(screens[index]):
                data = await asyncio.wait_for(processes[index].stdout.read(65536), deadline - time.monotonic())
                if not data:
                    raise SystemExit(f"visitor {index} was closed: {visible(screens[index])[-300:]}")
                screens[index].append(data)

        await asyncio.gather(*(until(n, "(you)") for n in range(count)))
        seconds = time.monotonic() - started
        apps = [pid for pid in descendants(server.pid) if b"join" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        typed = time.monotonic()
        processes[0].stdin.write(b"/")
        await asyncio.sleep(1.0)  # the focus moves to the move box a frame later
        processes[0].stdin.write(b"e7-e13\r")
        await until(0, "WhiteplayedE7-E13")
        report("serve-ssh", count, server.pid, apps, seconds, time.monotonic() - typed - 1.0)
    finally:
        for connection in connections:
            connection.close()
        server.terminate()
        server.wait(timeout=PATIENCE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--web", type=int, default=8, help="browsers (default: 8, cescacs-web's --max-sessions)")
    parser.add_argument("--ssh", type=int, default=32, help="SSH visitors (default: 32, serve-ssh's --max-visitors)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cescacs-visitors-") as folder:
        if args.web:
            (Path(folder) / "web").mkdir()
            asyncio.run(web(args.web, Path(folder) / "web"))
        if args.ssh:
            (Path(folder) / "ssh").mkdir()
            asyncio.run(ssh(args.ssh, Path(folder) / "ssh"))


if __name__ == "__main__":
    main()
