"""The address guard's explicit deny-list: special-purpose networks are refused whatever ``is_global`` says."""
from __future__ import annotations

import ipaddress

import pytest

from ckanext.passport.mr.addresses import DENIED, is_public_address
from ckanext.passport.mr.fetch import FetchPolicy, fetch


def _inside(network) -> list:
    """The first and last address of a network (one for a single address)."""
    return sorted({network[1] if network.num_addresses > 2 else network[0], network[-1]})


@pytest.mark.parametrize("network", DENIED, ids=str)
def test_every_address_of_a_denied_network_is_refused(network):
    assert not any(is_public_address(address) for address in _inside(network))


@pytest.mark.parametrize(
    "address",
    [
        "fec0::1",  # site local, deprecated
        "feff:ffff::1",  # the end of site local
        "192.0.0.8",  # the IPv4 dummy address
        "192.0.0.200",  # IETF protocol assignments
        "192.88.99.1",  # the former 6to4 relay anycast
        "3fff::1",  # IPv6 documentation (RFC 9637)
        "3fff:fff:ffff::1",
        "::ffff:192.0.0.8",  # embedded: judged as the IPv4 address it reaches
        "64:ff9b::c000:8",
    ],
)
def test_special_purpose_addresses_python_counts_as_global_are_refused_by_the_fetch(address):
    host = f"[{address}]" if ":" in address else address

    result = fetch(f"http://{host}/opendata/", FetchPolicy(retries=0))

    assert result.problem.code == "fetch.refused_address"
    assert result.status == 0


@pytest.mark.parametrize("address", ["192.31.196.1", "192.52.193.1", "2001:4860:4860::8888", "2a02:6b8::2:242"])
def test_globally_reachable_addresses_beside_the_denied_networks_are_public(address):
    assert is_public_address(ipaddress.ip_address(address))
