"""Which network addresses a fetch may reach, and host lookups that cannot hold a fetch past its deadline.

An address is public when ``ipaddress`` calls it global and it is in none of the networks of
:data:`DENIED` below: the IANA IPv4 and IPv6 special-purpose address registries' blocks that are not
globally reachable, spelled out so that the guard does not depend on what one Python release's
``is_global`` happens to know (3.11's counts ``fec0::/10``, ``192.0.0.8`` and ``3fff::/20`` as global).
IPv6 addresses that embed an IPv4 address (mapped, 6to4, Teredo, NAT64) are judged by the IPv4 address the
traffic would reach.

``getaddrinfo`` cannot be interrupted, so :func:`resolve` runs it in a worker thread and stops waiting at
its timeout: a resolver that never answers costs one parked thread (ended by the system resolver's own
timeouts), never the caller's deadline.
"""
from __future__ import annotations

import ipaddress
import socket
import threading
from typing import Optional, Union

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
IPNetwork = Union[ipaddress.IPv4Network, ipaddress.IPv6Network]

# Not globally reachable, after the IANA special-purpose registries (iana-ipv4-special-registry,
# iana-ipv6-special-registry) and the multicast and reserved blocks. Blocks whose addresses embed IPv4
# (::ffff:0:0/96, 64:ff9b::/96, 2001::/32, 2002::/16) are not listed: the embedded address decides.
DENIED: tuple[IPNetwork, ...] = tuple(
    ipaddress.ip_network(network)
    for network in (
        "0.0.0.0/8",  # "this network" (RFC 791)
        "10.0.0.0/8",  # private use (RFC 1918)
        "100.64.0.0/10",  # shared address space, carrier-grade NAT (RFC 6598)
        "127.0.0.0/8",  # loopback (RFC 1122)
        "169.254.0.0/16",  # link local, cloud metadata services among them (RFC 3927)
        "172.16.0.0/12",  # private use (RFC 1918)
        # IETF protocol assignments (RFC 6890): DS-Lite (192.0.0.0/29), the dummy address 192.0.0.8 (RFC 7600),
        # NAT64/DNS64 discovery (192.0.0.170/31); its two anycast services (.9 PCP, .10 TURN) serve no files.
        "192.0.0.0/24",
        "192.0.2.0/24",  # documentation, TEST-NET-1 (RFC 5737)
        "192.88.99.0/24",  # the former 6to4 relay anycast (RFC 7526: deprecated, not globally reachable)
        "192.168.0.0/16",  # private use (RFC 1918)
        "198.18.0.0/15",  # benchmarking (RFC 2544)
        "198.51.100.0/24",  # documentation, TEST-NET-2 (RFC 5737)
        "203.0.113.0/24",  # documentation, TEST-NET-3 (RFC 5737)
        "224.0.0.0/4",  # multicast (RFC 5771)
        "240.0.0.0/4",  # reserved (RFC 1112), 255.255.255.255 limited broadcast (RFC 919) among them
        "::/128",  # unspecified (RFC 4291)
        "::1/128",  # loopback (RFC 4291)
        "::/8",  # reserved by the IETF: IPv4-compatible (deprecated) addresses and no unicast use (RFC 4291)
        "64:ff9b:1::/48",  # local-use IPv4/IPv6 translation (RFC 8215)
        "100::/64",  # discard only (RFC 6666)
        "100:0:0:1::/64",  # dummy IPv6 prefix (RFC 9780)
        "2001:2::/48",  # benchmarking (RFC 5180)
        "2001:10::/28",  # ORCHID, deprecated (RFC 4843)
        "2001:db8::/32",  # documentation (RFC 3849)
        "3fff::/20",  # documentation (RFC 9637)
        "5f00::/16",  # segment routing (SRv6) SIDs (RFC 9602)
        "fc00::/7",  # unique local (RFC 4193)
        "fe80::/10",  # link local (RFC 4291)
        "fec0::/10",  # site local, deprecated (RFC 3879)
        "ff00::/8",  # multicast (RFC 4291)
    )
)

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


class LookupTimeout(Exception):
    """A host lookup outlasted its time; deliberately no ``OSError``, so it passes requests and urllib3 as is."""

    def __init__(self, host: str, seconds: float) -> None:
        super().__init__(f"looking up {host} took longer than {seconds:.1f} s")
        self.host = host
        self.seconds = seconds


def is_public_address(address: IPAddress) -> bool:
    """True when fetching from ``address`` cannot reach a private, local or special-purpose network."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_public_address(embedded)
    return address.is_global and not any(address in network for network in DENIED)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> Optional[ipaddress.IPv4Address]:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    # NAT64 well-known prefix: the gateway would connect to the embedded IPv4 address.
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def resolve(host: str, port: int, timeout: Optional[float] = None) -> list[str]:
    """All addresses of ``host`` (IP literals come back as themselves).

    Raises ``socket.gaierror`` (or ``UnicodeError``) when the host does not resolve, and
    :class:`LookupTimeout` when ``timeout`` seconds pass first (``None``: wait as long as the resolver does).
    """
    if _is_ip_literal(host):
        return [host]
    if timeout is None:
        return _addresses(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
    answer: list = []

    def lookup() -> None:
        try:
            answer.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread, raised there
            answer.append(error)

    worker = threading.Thread(target=lookup, name=f"resolve {host}"[:60], daemon=True)
    worker.start()
    worker.join(max(0.0, timeout))
    if not answer:
        raise LookupTimeout(host, timeout)
    if isinstance(answer[0], BaseException):
        raise answer[0]
    return _addresses(answer[0])


def _addresses(infos: list) -> list[str]:
    # Scope ids ("fe80::1%eth0") are not part of the address ipaddress understands.
    return list(dict.fromkeys(info[4][0].split("%", 1)[0] for info in infos))


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def refused_address(host: str, addresses: list[str]) -> Optional[str]:
    """The first address of ``host`` that must not be fetched from, or ``None`` when all are public."""
    for text in addresses:
        try:
            if not is_public_address(ipaddress.ip_address(text)):
                return text
        except ValueError:
            return text
    return None
