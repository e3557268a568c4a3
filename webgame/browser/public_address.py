"""The address the table's phones reach this server at: the base of every room link, QR code and share target.

A host who runs the game on his laptop opens ``http://localhost:8080``; a link built from that address sends every
phone to itself. So a page opened over loopback (by the laptop's own browser) gets its links on this machine's
address on the local network instead, the likeliest first (the one of the default route, then private networks:
192.168/16, 10/8, 172.16/12; never a container bridge, a VPN or a link-local one), and the host's lobby names
them in one line (``Reach``). ``PUBLIC_URL`` overrides all of this (a proxy, a domain): every link starts with it.

No guess is made where it would be wrong: when the server listens on loopback only (``HOST=127.0.0.1``, the
phones could not reach it anyway), inside a container (its own addresses are the container's, not the
machine's: set ``PUBLIC_URL``), or for a request that only claims to be local (a ``Host: localhost`` header
from another machine, or through a proxy, which adds ``X-Forwarded-For``): those keep the request's own address,
so a public server never shows its private addresses to a stranger.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from starlette.requests import Request

from webgame import settings

log = logging.getLogger(__name__)

PUBLIC_URL = "PUBLIC_URL"  # the environment variable
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})
# Interfaces the phones at the table cannot reach: container and VM bridges, VPNs, Apple's peer-to-peer links.
NOT_THE_TABLE = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "lxc", "lxd", "cni", "flannel", "podman",
                 "tun", "tap", "wg", "tailscale", "zt", "utun", "awdl", "llw", "ham")
CONTAINER_MARKS = (Path("/.dockerenv"), Path("/run/.containerenv"))
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})
CACHE_SECONDS = 30.0  # the machine's addresses are read again after this (a laptop changes Wi-Fi)
ROUTE_PROBE = ("1.1.1.1", 53)  # a UDP "connect" to it sends nothing; it tells which address the default route uses


class PublicUrlError(ValueError):
    """``PUBLIC_URL`` is set to something that is not an http(s) address."""


def public_url() -> str | None:
    """``PUBLIC_URL`` without its trailing slash, or None when unset; ``PublicUrlError`` when it is not
    ``http://`` or ``https://`` followed by a host (the server refuses to start with it: ``check_public_url``)."""
    value = settings.current().public_url
    if not value:
        return None
    value = value.rstrip("/")
    scheme, _, rest = value.partition("://")
    if scheme.lower() not in ("http", "https") or not rest or any(c.isspace() for c in rest):
        raise PublicUrlError(f"{PUBLIC_URL} must look like https://mafia.example.com or http://192.168.1.5:8080, "
                             f"not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Address:
    """One IPv4 address of this machine and its interface's name."""

    ip: str
    interface: str


def _private_rank(ip: ipaddress.IPv4Address) -> int:
    if ip in ipaddress.IPv4Network("192.168.0.0/16"):
        return 0
    if ip in ipaddress.IPv4Network("10.0.0.0/8"):
        return 1
    if ip in ipaddress.IPv4Network("172.16.0.0/12"):
        return 2
    return 3  # a public address, or a carrier's shared one (100.64/10): possible, the least likely


def rank(addresses: list[Address], default_route: str | None) -> list[Address]:
    """The addresses the phones may reach, the likeliest first: the default route's, then by private range,
    then in the system's order; without loopback, link-local, and interfaces no phone at the table reaches."""
    kept: list[tuple[tuple[int, int, int], Address]] = []
    seen: set[str] = set()
    for index, address in enumerate(addresses):
        try:
            ip = ipaddress.IPv4Address(address.ip)
        except ValueError:
            continue
        if (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified or address.ip in seen
                or address.interface.lower().startswith(NOT_THE_TABLE)):
            continue
        seen.add(address.ip)
        kept.append(((0 if address.ip == default_route else 1, _private_rank(ip), index), address))
    return [address for _, address in sorted(kept, key=lambda pair: pair[0])]


def machine_addresses() -> list[Address]:
    """Every IPv4 address of this machine's interfaces (``ifaddr``, which NiceGUI uses for its own start line)."""
    import ifaddr

    found: list[Address] = []
    for adapter in ifaddr.get_adapters():
        for entry in adapter.ips:
            if entry.is_IPv4 and isinstance(entry.ip, str):
                found.append(Address(entry.ip, str(adapter.name)))
    return found


def default_route_address() -> str | None:
    """The address this machine sends from on its default route (no packet is sent), or None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            return str(probe.getsockname()[0])
    except OSError:
        return None


def in_container() -> bool:
    return any(mark.exists() for mark in CONTAINER_MARKS)


@dataclass(slots=True)
class _Cache:
    """The machine's ranked addresses and when they were read (``lan_addresses``)."""

    at: float = -CACHE_SECONDS
    value: tuple[str, ...] = ()


_CACHE = _Cache()
LanLister = Callable[[], list[Address]]


def lan_addresses(listing: LanLister | None = None, now: Callable[[], float] = time.monotonic) -> tuple[str, ...]:
    """This machine's addresses the phones may reach, the likeliest first; none when no guess can be right (the
    server bound to one address: that one; to loopback, or in a container: none). Read again every
    ``CACHE_SECONDS``."""
    bound = settings.current().host
    if bound not in WILDCARD_HOSTS:
        try:
            ip = ipaddress.ip_address(bound.strip("[]"))
        except ValueError:
            return ()  # a host name: the phones use what the host typed
        return () if ip.is_loopback or ip.version != 4 else (str(ip),)
    if in_container():
        return ()
    moment = now()
    if moment - _CACHE.at >= CACHE_SECONDS:
        try:
            ranked = rank((listing or machine_addresses)(), default_route_address())
        except OSError as error:
            log.warning("could not list this machine's network addresses: %s", error)
            ranked = []
        _CACHE.at, _CACHE.value = moment, tuple(address.ip for address in ranked)
    return _CACHE.value


def is_local_request(request: Request) -> bool:
    """Whether this request comes from a browser on this very machine, asking for a loopback address: its
    ``Host`` is loopback, its peer is loopback, and no proxy stands between (no ``X-Forwarded-For``)."""
    hostname = (request.url.hostname or "").strip("[]").lower()
    peer = request.client.host if request.client is not None else ""
    return (_loopback(hostname) and _loopback(peer) and "x-forwarded-for" not in request.headers
            and "forwarded" not in request.headers)


def _loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


Kind = Literal["own", "public", "lan", "unreachable"]


@dataclass(frozen=True, slots=True)
class Reach:
    """Where the phones reach the room's server from this request's point of view.

    ``base``: the start of every link (no trailing slash). ``kind``: ``own`` (the request's own address, which
    other phones can use), ``public`` (``PUBLIC_URL``), ``lan`` (a loopback page sent to this machine's LAN
    address; ``others``: its other addresses), ``unreachable`` (a loopback page and no address to offer)."""

    base: str
    kind: Kind
    others: tuple[str, ...] = ()

    @property
    def local(self) -> bool:
        """The page was opened on the server's own machine (its lobby tells the host where phones join)."""
        return self.kind != "own"


def reach(request: Request, listing: LanLister | None = None) -> Reach:
    """Where the phones should go, seen from ``request`` (``listing``: this machine's addresses, for tests)."""
    own = str(request.base_url).rstrip("/")
    configured = _configured()
    if configured is not None:
        return Reach(configured, "public" if is_local_request(request) else "own")
    if not is_local_request(request):
        return Reach(own, "own")
    bases = [str(request.base_url.replace(hostname=ip)).rstrip("/") for ip in lan_addresses(listing)]
    if not bases:
        return Reach(own, "unreachable")
    return Reach(bases[0], "lan", tuple(bases[1:]))


def base_url(request: Request) -> str:
    """The start of every link a phone at the table should get (``PUBLIC_URL``, the LAN address of a loopback
    page, or the request's own)."""
    return reach(request).base


def _configured() -> str | None:
    """``PUBLIC_URL``, or None when unset or malformed (the server refuses to start with a malformed one)."""
    try:
        return public_url()
    except PublicUrlError:
        return None


def check_public_url() -> None:
    """At start: a malformed ``PUBLIC_URL`` stops the server with a clear message (links would be broken)."""
    try:
        public_url()
    except PublicUrlError as error:
        raise SystemExit(str(error)) from None


def start_links(port: int) -> list[str]:
    """The links ``bash scripts/play`` prints at start: ``PUBLIC_URL``, else this machine's LAN addresses (the
    likeliest first), else localhost's (no address a phone could use)."""
    if configured := _configured():
        return [configured]
    lan = [f"http://{ip}:{port}" for ip in lan_addresses()]
    return lan or [f"http://localhost:{port}"]


def terminal_qr(link: str) -> str:
    """``link`` as a QR code drawn with half-block characters for a terminal: its light modules are the blocks, so
    on a dark terminal the code has its usual colours (phones' scanners read it the other way round too)."""
    import io

    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(link)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def announce(port: int) -> str:
    """What ``bash scripts/play`` prints once the server is up: where phones join, and the first link's QR code."""
    links = start_links(port)
    lines = ["", f"Phones join at {links[0]}"]
    lines += [f"  or at {link}" for link in links[1:]]
    if links[0].startswith("http://localhost"):
        lines.append("  (no network address found: phones need this computer's address on their Wi-Fi, "
                     "or set PUBLIC_URL)")
    return "\n".join([*lines, terminal_qr(links[0])])
