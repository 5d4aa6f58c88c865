"""textual-serve, configured to be safe to serve: our page, our checks, one game per browser.

:class:`CescacsServer` subclasses textual-serve's ``Server`` and keeps its
websocket protocol, its ``/static`` files (the terminal in JavaScript) and its
downloads; it adds, on every request, the ``Host`` check and security
headers (a Content-Security-Policy that allows this site only), and around
the websocket the ``Origin`` check, the browser's identity, the optional
password and the limit on live sessions.  :class:`BrowserAppService` starts
each browser's process with that browser's own data and settings
directories, as a web visitor's (:class:`~cescacs_tui.session.policy.Policy`:
no file, clipboard or program of the server; engines only in the few places
the server shares).  A game left without a key for ``idle`` seconds is
ended (the app saves it; the page offers to play again, which resumes it),
the folders of browsers not seen for ``forget_days`` are removed, and no
directory of the server's files is ever listed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import signal
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, Final

import aiohttp_jinja2
import jinja2
import textual_serve.download_manager
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from ..data.engine_slots import EngineSlots
from ..data.settings import SETTINGS_NAME, read_language
from ..i18n import NC_, _, locale_environment, translation
from ..i18n import language as process_language
from ..remote.log_pace import PacedLogFilter
from ..remote.serving import until_stopped
from ..session.policy import CHOOSE_FILE_URL, LaunchKind, Policy
from .browsers import AUTH_COOKIE, BROWSER_COOKIE, Browser, browser_from_cookie, forget_browsers, new_browser_id
from .languages import browser_language
from .sessions import FULL, IDLE, SessionTable
from .site import Site

__all__ = ["PASSWORD_VARIABLE", "BrowserAppService", "CescacsServer", "terminal_size"]

log = logging.getLogger("cescacs-web")

HERE: Final = Path(__file__).parent
PASSWORD_VARIABLE: Final = "CESCACS_WEB_PASSWORD"

MAX_COLUMNS: Final = 1000
MAX_ROWS: Final = 500
"""A terminal larger than any screen shows is refused: a visitor cannot make the app draw a gigapixel."""

STOP_SECONDS: Final = 10.0
"""How long a process has to quit when its tab goes; then it is killed."""

LOGIN_DELAY_SECONDS: Final = 1.0
"""A wrong password costs this long, one attempt at a time: guessing is slow."""

COOKIE_DAYS: Final = 400
"""Browsers keep a cookie at most this long (Chromium's cap); a game survives a closed browser."""

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # the terminal's script adds its own style elements
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
    )
)
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
FORGET_EVERY_SECONDS: Final = 3600.0
"""How often the folders of browsers not seen for a while are looked for."""

STATIC_PREFIXES: Final = ("/static/", "/cescacs/", "/favicon.ico")
"""The script, styles, font and icon may be cached; pages and downloads are not."""

CHUNK_PATIENCE_SECONDS: Final = 60
"""How long a download (a screenshot, a record) waits for each piece of its file from the app that makes it.

textual-serve waits 4 s (``DOWNLOAD_TIMEOUT``, the setting it reads at each wait), then ends the response: the
player's new tab stayed empty for good whenever the app, on a busy machine, answered later than that (the
browser test of the screenshot failed so in a full run on an idle 2-core machine; an app stopped for 5 s as the
download is asked for does it every time).  A longer wait costs nothing: an app that ends has its downloads
ended with it (textual-serve's ``AppService.stop``, which every session's end calls).
"""
textual_serve.download_manager.DOWNLOAD_TIMEOUT = CHUNK_PATIENCE_SECONDS


def terminal_size(width: object, height: object) -> tuple[int, int] | None:
    """A browser's terminal size in cells, if it is whole numbers a screen can show."""
    if type(width) is not int or type(height) is not int:
        return None
    if not (1 <= width <= MAX_COLUMNS and 1 <= height <= MAX_ROWS):
        return None
    return width, height


PAGE: Final = "web page"
"""The catalogs' context of the web pages' words (their "Start" is not the move list's)."""
PAGE_WORDS: Final = {
    "start": NC_("web page", "Start"),
    "session_ended": NC_("web page", "Session ended."),
    "play_again": NC_("web page", "Play again"),
    "choose_record": NC_("web page", "Choose a record file\u2026"),
    "password": NC_("web page", "Password"),
    "play": NC_("web page", "Play"),
    "try_again": NC_("web page", "Try again"),
    "server_stopped": NC_("web page", "The server stopped."),
    "other_tab": NC_("web page", "This game is now open in another tab or window."),
    "idle": NC_("web page", "The game was closed after a while without a key. It is saved: Play again resumes it."),
    "server_full": NC_("web page", "The server is full: too many games are being played. Try again in a while."),
    # Translators: {name} is a file's name, {size} a number of kilobytes.
    "too_large": NC_("web page", "{name} is too large for a game record (over {size} KB)."),
    "not_utf8": NC_("web page", "{name} is not UTF-8 text."),
    "not_text": NC_("web page", "{name} is not a text file."),
}
"""The pages' own words (and the page script's, which it reads from the page), by the name the templates use."""


def _query_size(request: web.Request) -> tuple[int, int]:
    try:
        size = terminal_size(int(request.query.get("width", "80")), int(request.query.get("height", "24")))
    except ValueError:
        size = None
    return size or (80, 24)


class BrowserAppService(AppService):
    """One browser's app process: its own directories, web mode, and a bounded stop."""

    def __init__(
        self, command: str, *, browser: Browser, policy: Policy, language: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(command, **kwargs)
        self.browser = browser
        self.policy = policy
        self.language = language
        """The language the browser asks for (``None``: it names none the interface speaks)."""
        self.last_input = time.monotonic()
        """When the visitor last pressed a key or moved the mouse, or else when the game was first shown: the idle
        timeout counts from it, so a slow start on a busy server never eats into the visitor's time."""
        self._shown = False

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment.pop(PASSWORD_VARIABLE, None)
        environment.update(self.policy.environment())  # a web visitor's app, read once as it starts
        environment["CESCACS_DATA_DIR"] = str(self.browser.data_dir)
        environment["CESCACS_CONFIG_DIR"] = str(self.browser.config_dir)
        return environment if self.language is None else locale_environment(environment, self.language)

    async def on_meta(self, data: bytes) -> None:
        meta = json.loads(data)
        if isinstance(meta, dict) and meta.get("type") == "open_url" and meta.get("url") == CHOOSE_FILE_URL:
            await self.remote_write_str(json.dumps(["cescacs", "choose_file"]))
            return
        await super().on_meta(data)

    async def on_data(self, payload: bytes) -> None:
        if not self._shown:
            self._shown = True
            self.last_input = time.monotonic()
        await super().on_data(payload)

    async def send_bytes(self, data: bytes) -> bool:
        """Pass keys on; ``False`` if the app has not taken them within :data:`STOP_SECONDS` (its input is dead)."""
        self.last_input = time.monotonic()
        try:
            async with asyncio.timeout(STOP_SECONDS):
                return await super().send_bytes(data)
        except TimeoutError:
            return False

    async def run(self) -> None:
        """textual-serve's relay of the app's output, then the end of the page: once the app has gone, its tab is
        closed at once (textual-serve closes it only when the app says it exits; a process that was killed, or
        died, left the page frozen until the visitor's next key)."""
        try:
            await super().run()
        finally:
            await self.remote_close()

    async def stop(self) -> None:
        """Ask the app to quit; kill it if it has not within twice :data:`STOP_SECONDS`; wait until it has exited.

        Only then is the browser's place free, so a new process never shares
        the data directory with a dying one.  A cancellation of the caller (the
        server stopping) waits for that too, and is raised after it: cancelled,
        textual-serve's relay of the app's output returns as if it had ended,
        which swallowed the cancellation, and a cancellation while the app was
        asked to quit left without waiting for it.
        """
        ending = asyncio.ensure_future(self._end_process())
        try:
            await asyncio.shield(ending)
        except asyncio.CancelledError:
            await asyncio.wait([ending])
            raise

    async def _end_process(self) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(STOP_SECONDS):
                await super().stop()  # asks the app to quit, then waits for the relay of its output to end
        process = self._process
        if process is not None and process.returncode is None:
            try:
                async with asyncio.timeout(STOP_SECONDS):
                    await process.wait()
            except TimeoutError:
                log.warning("an app process did not quit when asked: killed")
                process.kill()
                await process.wait()


class CescacsServer(Server):
    """``cescacs-web``'s server (see the module docstring); ``serve()`` raises ``OSError`` if it cannot listen."""

    def __init__(
        self,
        command: str,
        *,
        site: Site,
        host: str,
        port: int,
        state_dir: Path,
        max_sessions: int,
        password: str | None = None,
        language: str | None = None,
        engines: int = 2,
        idle_seconds: float = 0.0,
        forget_days: float = 0.0,
    ) -> None:
        super().__init__(
            command,
            host=host,
            port=port,
            title="C'escacs",
            public_url=site.public_url,
            templates_path=HERE / "templates",
        )
        self.site = site
        self.state_dir = state_dir
        self.sessions = SessionTable(max_sessions)
        self.password = password
        self.language = language
        """``--lang``: every page and game in this language, whatever the browser asks (``None``: the browser's)."""
        self.engines = engines
        """Engines the visitors may run at once, all together (``0``: none)."""
        self.idle_seconds = idle_seconds
        """A game without a key for this long is ended, saved (``0``: never)."""
        self.forget_days = forget_days
        """The folder of a browser not seen for this many days is removed (``0``: never)."""
        self.policy = Policy(LaunchKind.WEB)
        """What each visitor may do with this machine (its engine places are made when the server starts)."""
        self._login_lock = asyncio.Lock()

    # --- running -------------------------------------------------------------------

    def initialize_logging(self) -> None:
        """Plain log lines (textual-serve's rich tracebacks show local variables, which may hold a password), at a
        pace no stranger can turn into a flood."""
        logging.basicConfig(level=logging.DEBUG if self.debug else logging.INFO, format="%(message)s")
        for handler in logging.getLogger().handlers:
            handler.addFilter(PacedLogFilter())

    def serve(self, debug: bool = False) -> None:
        """Listen, say where, and serve until SIGINT or SIGTERM."""
        self.debug = debug
        self.initialize_logging()
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        # No access log: a request line can carry ``?token=``, the password.
        runner = web.AppRunner(await self.application(), handle_signals=False, access_log=None, shutdown_timeout=5)
        await runner.setup()
        with tempfile.TemporaryDirectory(prefix="cescacs-engines-") as places:  # this server's own, gone with it
            engines = EngineSlots(Path(places), self.engines)
            self.policy = Policy(LaunchKind.WEB, engines if self.engines else None)
            forgetting = asyncio.create_task(self._forget_old_browsers()) if self.forget_days else None
            try:
                await web.TCPSite(runner, self.host, self.port).start()
                said = _("Serving C'escacs on {url} (Ctrl+C stops)").format(url=self.public_url)
                await until_stopped(lambda: print(said, flush=True), signals=(signal.SIGINT, signal.SIGTERM))
            finally:
                if forgetting is not None:
                    forgetting.cancel()
                await runner.cleanup()

    async def _forget_old_browsers(self) -> None:
        """Remove the folders of browsers not seen for :attr:`forget_days`, at the start and then every hour."""
        while True:
            live = self.sessions.browsers()
            folders = {Browser(browser_id, self.state_dir).directory.name for browser_id in live}
            forgotten = await asyncio.to_thread(forget_browsers, self.state_dir, self.forget_days * 86400, folders)
            if forgotten:
                log.info("forgot %d browsers not seen for %g days", forgotten, self.forget_days)
            await asyncio.sleep(FORGET_EVERY_SECONDS)

    async def on_startup(self, app: web.Application) -> None:
        """Nothing yet: the address is printed once the port is really listening."""

    async def on_shutdown(self, app: web.Application) -> None:
        """End every session, so no app process outlives the server."""
        await self.sessions.end_all()

    async def application(self) -> web.Application:
        """The site: textual-serve's public handlers (the page, its websocket, downloads, the terminal's files
        under ``/static``, never a listing) and ours (log in, the favicon, the page's own files), behind the
        ``Host`` check, with the security headers.  Made here rather than by textual-serve's private app
        factory, whose listings are on and whose app would need its middlewares added after it was made."""
        app = web.Application(middlewares=[self._check_host, self._no_listings])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
                web.post("/login", self.handle_login, name="login"),
                web.get("/favicon.ico", self.handle_favicon),
                web.static("/cescacs", HERE / "static", name="cescacs-static"),
            ]
        )
        app.on_response_prepare.append(self._add_security_headers)
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    @web.middleware
    async def _check_host(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not self.site.allows_host(request.headers.get("Host")):
            raise web.HTTPForbidden(text="This server does not answer to that host name.\n")
        response: web.StreamResponse = await handler(request)
        return response

    @staticmethod
    @web.middleware
    async def _no_listings(request: web.Request, handler: Any) -> web.StreamResponse:
        """Files, never a folder: a folder asked for is not found (aiohttp would say it exists, and forbid it)."""
        resource = request.match_info.route.resource
        if isinstance(resource, web.StaticResource):
            filename = request.match_info.get("filename", "")
            folder = Path(resource.get_info()["directory"]) / filename
            if not filename or filename.endswith("/") or await asyncio.to_thread(folder.is_dir):
                raise web.HTTPNotFound()
        response: web.StreamResponse = await handler(request)
        return response

    @staticmethod
    async def _add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        if not request.path.startswith(STATIC_PREFIXES):
            response.headers["Cache-Control"] = "no-store"

    # --- the page --------------------------------------------------------------------

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The game's page, or what stands before it: the password, a full server."""
        known = browser_from_cookie(request.cookies.get(BROWSER_COOKIE))
        if known is None and request.headers.get("Sec-Fetch-Site") in ("cross-site", "same-site"):
            # Arriving by a link from another site, the browser holds back its SameSite=Strict cookie;
            # a new identity now would replace it and lose the game.  Reloading from here sends it.
            return self._page(
                request, "notice.html", {"refresh": True, "message": NC_("web page", "Opening C'escacs\u2026")}
            )
        browser = self._browser(known or new_browser_id())
        if self.password is not None:
            token = request.query.get("token")
            if token is not None:
                return await self._log_in(request, browser, token, new=known is None)
            if not browser.has_auth(self.password, request.cookies.get(AUTH_COOKIE)):
                return self._page(request, "login.html", {}, browser=browser if known is None else None)
        if not self.sessions.has_room_for(browser.id):
            return self._full(request, browser if known is None else None)
        context = {"font_size": 16}
        return self._page(request, "app_index.html", context, browser=browser if known is None else None)

    async def handle_login(self, request: web.Request) -> web.StreamResponse:
        if self.password is None:
            raise web.HTTPNotFound()
        if not self.site.allows_origin(request.headers.get("Origin")):
            raise web.HTTPForbidden(text="Log in from this site's own page.\n")
        known = browser_from_cookie(request.cookies.get(BROWSER_COOKIE))
        form = await request.post()
        password = form.get("password")
        browser = self._browser(known or new_browser_id())
        return await self._log_in(request, browser, password if isinstance(password, str) else "", new=known is None)

    async def handle_favicon(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(HERE / "static" / "favicon.svg", headers={"Content-Type": "image/svg+xml"})

    async def _log_in(self, request: web.Request, browser: Browser, password: str, *, new: bool) -> web.StreamResponse:
        assert self.password is not None
        if not hmac.compare_digest(password.encode("utf-8"), self.password.encode("utf-8")):
            async with self._login_lock:
                await asyncio.sleep(LOGIN_DELAY_SECONDS)
            return self._page(
                request,
                "login.html",
                {"error": NC_("web page", "Wrong password.")},
                status=403,
                browser=browser if new else None,
            )
        redirect = web.HTTPSeeOther("./")
        self._set_cookie(redirect, AUTH_COOKIE, browser.auth_token(self.password))
        if new:
            self._set_cookie(redirect, BROWSER_COOKIE, browser.id)
        raise redirect

    def _full(self, request: web.Request, new_browser: Browser | None) -> web.StreamResponse:
        message = NC_("web page", "The server is full: {count} games are being played. Try again in a while.")
        context = {"message": message, "count": self.sessions.limit, "retry": True}
        return self._page(request, "notice.html", context, status=503, browser=new_browser)

    def _page(
        self,
        request: web.Request,
        template: str,
        context: dict[str, Any],
        *,
        status: int = 200,
        browser: Browser | None = None,
    ) -> web.Response:
        language = self.language_of(request)
        words = translation(language)
        said = {name: words.pgettext(PAGE, text) for name, text in PAGE_WORDS.items()}
        for name in ("message", "error"):  # a message id, with the context's other values as its placeholders
            if name in context:
                context[name] = words.pgettext(PAGE, context[name]).format(**context)
        page = {"title": self.title, "lang": language, "words": said, **context}
        response = aiohttp_jinja2.render_template(template, request, page, status=status)
        if browser is not None:
            self._set_cookie(response, BROWSER_COOKIE, browser.id)
        return response

    def language_of(self, request: web.Request) -> str:
        """The language to answer ``request`` in, as the browser's game would choose it: ``--lang``, else the
        language the browser chose in the app (its settings), else its ``Accept-Language``, else the server's."""
        if self.language:
            return self.language
        browser = self._known_browser(request)
        chosen = None if browser is None else read_language(browser.config_dir / SETTINGS_NAME)
        return chosen or browser_language(request.headers.get("Accept-Language")) or process_language()

    def _set_cookie(self, response: web.StreamResponse, name: str, value: str) -> None:
        response.set_cookie(
            name,
            value,
            max_age=COOKIE_DAYS * 24 * 3600,
            path="/",
            httponly=True,
            samesite="Strict",
            secure=self.site.secure or None,
        )

    def _browser(self, browser_id: str) -> Browser:
        return Browser(browser_id, self.state_dir)

    def _known_browser(self, request: web.Request) -> Browser | None:
        """The request's browser, if it carries an identity (and the password's cookie, when one is set)."""
        browser_id = browser_from_cookie(request.cookies.get(BROWSER_COOKIE))
        if browser_id is None:
            return None
        browser = self._browser(browser_id)
        if self.password is not None and not browser.has_auth(self.password, request.cookies.get(AUTH_COOKIE)):
            return None
        return browser

    # --- the game's websocket and downloads --------------------------------------------

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Drive one app process for a page of this site, for the browser the page was given to."""
        if not self.site.allows_origin(request.headers.get("Origin")):
            raise web.HTTPForbidden(text="Only this site's own page may start a game.\n")
        browser = self._known_browser(request)
        if browser is None:
            raise web.HTTPForbidden(text="Load the page first.\n")
        width, height = _query_size(request)
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)

        async def end_tab(code: int) -> None:
            await websocket.close(code=code)

        session = await self.sessions.admit(browser.id, end_tab)
        if session is None:
            await websocket.close(code=FULL)
            return websocket
        tag = browser.directory.name[:8]
        log.info("browser %s: game started (%d of %d places taken)", tag, len(self.sessions), self.sessions.limit)
        try:
            browser.prepare()
            service = BrowserAppService(
                self.command,
                browser=browser,
                policy=self.policy,
                language=None if self.language else browser_language(request.headers.get("Accept-Language")),
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await service.start(width, height)
            try:
                if await self._until_idle(self._process_messages(websocket, service), service):
                    log.info("browser %s: no key for %g s: game ended (saved)", tag, self.idle_seconds)
                    await websocket.close(code=IDLE)  # first: the page says why; then the app quits, saving
            finally:
                await service.stop()
        except Exception:
            log.exception("browser %s: the session failed", tag)
        finally:
            session.release()
            await websocket.close(code=WSCloseCode.GOING_AWAY)
            log.info("browser %s: game ended", tag)
        return websocket

    async def _until_idle(self, messages: Coroutine[Any, Any, None], service: BrowserAppService) -> bool:
        """Run ``messages`` until the page goes (``False``) or no key came for :attr:`idle_seconds` (``True``)."""
        task = asyncio.ensure_future(messages)
        if not self.idle_seconds:
            await task
            return False
        try:
            while not task.done():
                left = service.last_input + self.idle_seconds - time.monotonic()
                if left <= 0:
                    return True
                await asyncio.wait({task}, timeout=left)
            task.result()
            return False
        finally:
            task.cancel()

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """Pass the page's messages to the app; anything malformed is ignored, never a crash or a huge screen."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                # A lone surrogate is dropped; nothing empty is sent: Textual's input parser takes "" for the end.
                keys = data.encode("utf-8", "ignore")
                if keys and not await app_service.send_bytes(keys):
                    break
            elif kind == "resize" and isinstance(data, dict):
                size = terminal_size(data.get("width"), data.get("height"))
                if size is not None:
                    await app_service.set_terminal_size(*size)
            elif kind == "ping" and isinstance(data, str):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A record the app delivers, only to the browser whose app made it."""
        browser = self._known_browser(request)
        try:
            download = await self.download_manager.get_download_metadata(request.match_info["key"])
        except KeyError:
            download = None
        owner = getattr(download.app_service, "browser", None) if download is not None else None
        if browser is None or owner is None or owner.id != browser.id:
            raise web.HTTPNotFound(text="No such download.\n")
        return await super().handle_download(request)
