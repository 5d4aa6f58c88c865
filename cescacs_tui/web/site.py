"""Who may drive the app: the addresses the server is reached at, checked on every request.

A browser page from any site can open a websocket to ``127.0.0.1``; only the
``Origin`` header says which page asked.  And a page from another site can
make its own name resolve to this machine (DNS rebinding): then the
``Origin`` matches the ``Host``, and only the ``Host`` header shows that the
browser believes it is talking to someone else.  So both are checked against
the names the server is really served under: the address it listens on (every
loopback name when that is a loopback address) and the ``--public-url``.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..i18n import _

__all__ = ["LOOPBACK_NAMES", "WILDCARD_HOSTS", "Site", "SiteError", "is_loopback", "is_wildcard"]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""The names a browser on this machine may use for a server on a loopback address."""

WILDCARD_HOSTS = ("0.0.0.0", "::", "")
"""Addresses that listen on every interface, so they name no host a browser could use."""

DEFAULT_PORTS = {"http": 80, "https": 443}


class SiteError(ValueError):
    """The served address or the public URL cannot name a site (said in one line)."""


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host in WILDCARD_HOSTS


@dataclass(frozen=True)
class Site:
    """The origins (``scheme``, ``host``, ``port``) whose pages may use the server, and the hosts it answers to."""

    origins: frozenset[tuple[str, str, int]]
    public_url: str
    """The address to tell people: the ``--public-url``, else the listening address."""

    @classmethod
    def served(cls, host: str, port: int, public_url: str | None = None) -> Site:
        origins: set[tuple[str, str, int]] = set()
        if public_url is not None:
            origins.add(_public_origin(public_url))
        elif is_wildcard(host):
            shown = host or "''"
            said = _(
                "--host {host} listens on every interface, so browsers reach this server under a name "
                "only you know: give it with --public-url (e.g. --public-url http://your-machine.example:{port}), "
                "and consider --password"
            )
            raise SiteError(said.format(host=shown, port=port))
        if is_loopback(host) or is_wildcard(host):
            origins.update(("http", name, port) for name in LOOPBACK_NAMES)
        else:
            origins.add(("http", host.lower().strip("[]"), port))
        if public_url is None:
            shown = "localhost" if host.lower() == "localhost" else _bracketed(host.strip("[]"))
            public_url = f"http://{shown}" if port == 80 else f"http://{shown}:{port}"
        return cls(frozenset(origins), public_url.rstrip("/"))

    def allows_origin(self, origin: str | None) -> bool:
        """Whether a page of ``origin`` (the header's value) may drive the app: never ``null`` or absent."""
        if not origin or origin == "null":
            return False
        parts = _split(origin)
        return parts is not None and parts in self.origins

    def allows_host(self, host: str | None) -> bool:
        """Whether the ``Host`` header names this server (without a port: the scheme's default port)."""
        if not host:
            return False
        try:
            split = urlsplit(f"//{host}")
            name, port = split.hostname, split.port
        except ValueError:
            return False
        if not name or split.username is not None or split.path or split.query:
            return False
        return any(
            name == known and (port == known_port or (port is None and known_port == DEFAULT_PORTS[scheme]))
            for scheme, known, known_port in self.origins
        )

    @property
    def secure(self) -> bool:
        """Served over HTTPS (behind a proxy): cookies are then marked ``Secure``."""
        return self.public_url.startswith("https://")


def _split(url: str) -> tuple[str, str, int] | None:
    try:
        split = urlsplit(url)
        port = split.port
    except ValueError:
        return None
    if split.scheme not in DEFAULT_PORTS or not split.hostname or split.username is not None:
        return None
    return split.scheme, split.hostname, port if port is not None else DEFAULT_PORTS[split.scheme]


def _public_origin(public_url: str) -> tuple[str, str, int]:
    parts = _split(public_url)
    split = urlsplit(public_url)
    if parts is None or split.path not in ("", "/") or split.query or split.fragment:
        said = _(
            "--public-url {url} is not a site's address: give scheme, host and port only, "
            "e.g. https://chess.example.org or http://192.168.1.20:8000"
        )
        raise SiteError(said.format(url=repr(public_url)))
    return parts


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host
