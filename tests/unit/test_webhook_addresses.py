"""Webhook addresses against every row of the IANA special-purpose address registries (IPv4
and IPv6), written out here from the registries themselves
(https://www.iana.org/assignments/iana-ipv4-special-registry/ and
https://www.iana.org/assignments/iana-ipv6-special-registry/, as published in 2024), so the
check is tested against the registries and not against the library it uses."""

from __future__ import annotations

import ipaddress

import pytest

from play.webhooks import _public

# (block, name, globally reachable: True, False, or None for N/A)
IPV4_ROWS = [
    ("0.0.0.0/8", "This network", False),
    ("0.0.0.0/32", "This host on this network", False),
    ("10.0.0.0/8", "Private-Use", False),
    ("100.64.0.0/10", "Shared Address Space", False),
    ("127.0.0.0/8", "Loopback", False),
    ("169.254.0.0/16", "Link Local", False),
    ("172.16.0.0/12", "Private-Use", False),
    ("192.0.0.0/24", "IETF Protocol Assignments", False),
    ("192.0.0.0/29", "IPv4 Service Continuity Prefix", False),
    ("192.0.0.8/32", "IPv4 dummy address", False),
    ("192.0.0.9/32", "Port Control Protocol Anycast", True),
    ("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", True),
    ("192.0.0.170/32", "NAT64/DNS64 Discovery", False),
    ("192.0.0.171/32", "NAT64/DNS64 Discovery", False),
    ("192.0.2.0/24", "Documentation (TEST-NET-1)", False),
    ("192.31.196.0/24", "AS112-v4", True),
    ("192.52.193.0/24", "AMT", True),
    ("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", None),
    ("192.168.0.0/16", "Private-Use", False),
    ("192.175.48.0/24", "Direct Delegation AS112 Service", True),
    ("198.18.0.0/15", "Benchmarking", False),
    ("198.51.100.0/24", "Documentation (TEST-NET-2)", False),
    ("203.0.113.0/24", "Documentation (TEST-NET-3)", False),
    ("240.0.0.0/4", "Reserved", False),
    ("255.255.255.255/32", "Limited Broadcast", False),
]
IPV6_ROWS = [
    ("::1/128", "Loopback Address", False),
    ("::/128", "Unspecified Address", False),
    ("::ffff:0:0/96", "IPv4-mapped Address", False),
    ("64:ff9b::/96", "IPv4-IPv6 Translat.", True),
    ("64:ff9b:1::/48", "IPv4-IPv6 Translat.", False),
    ("100::/64", "Discard-Only Address Block", False),
    ("100:0:0:1::/64", "Dummy IPv6 Prefix", False),
    ("2001::/23", "IETF Protocol Assignments", False),
    ("2001::/32", "TEREDO", None),
    ("2001:1::1/128", "Port Control Protocol Anycast", True),
    ("2001:1::2/128", "Traversal Using Relays around NAT Anycast", True),
    ("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", True),
    ("2001:2::/48", "Benchmarking", False),
    ("2001:3::/32", "AMT", True),
    ("2001:4:112::/48", "AS112-v6", True),
    ("2001:10::/28", "Deprecated (previously ORCHID)", None),
    ("2001:20::/28", "ORCHIDv2", True),
    ("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", True),
    ("2001:db8::/32", "Documentation", False),
    ("2002::/16", "6to4", None),
    ("2620:4f:8000::/48", "Direct Delegation AS112 Service", True),
    ("3fff::/20", "Documentation", False),
    ("5f00::/16", "Segment Routing (SRv6) SIDs", False),
    ("fc00::/7", "Unique-Local", False),
    ("fe80::/10", "Link-Local Unicast", False),
]
ROWS = IPV4_ROWS + IPV6_ROWS
NOT_REACHABLE = [row for row in ROWS if not row[2]]


def samples(block: str) -> list[str]:
    """The block's first and last addresses and one in the middle."""
    network = ipaddress.ip_network(block)
    first, last = int(network.network_address), int(network.broadcast_address)
    kind = type(network.network_address)
    return [str(kind(value)) for value in (first, (first + last) // 2, last)]


@pytest.mark.parametrize(
    ("block", "name", "reachable"), NOT_REACHABLE, ids=[row[0] for row in NOT_REACHABLE]
)
def test_every_special_purpose_block_not_globally_reachable_is_refused(
    block: str, name: str, reachable: bool | None
) -> None:
    """Rows not globally reachable (False, or N/A) are refused wherever in the block."""
    for address in samples(block):
        assert not _public(address), (block, name, address)


# Globally reachable rows whose addresses carry no IPv4 address and that the library knows of
# (it refuses 2001:1::3, registered in 2024, with the rest of 2001::/23: stricter, not looser).
REACHABLE = [
    "192.0.0.9", "192.0.0.10", "192.31.196.1", "192.52.193.200", "192.175.48.6",
    "2001:1::1", "2001:1::2", "2001:3::1", "2001:4:112::1", "2001:20::1", "2001:30::1",
    "2620:4f:8000::1", "8.8.8.8", "1.1.1.1", "2a00:1450:4001::1",
]  # fmt: skip


@pytest.mark.parametrize("address", REACHABLE)
def test_globally_reachable_addresses_are_allowed(address: str) -> None:
    assert _public(address)


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::a00:1",  # NAT64 (well-known prefix) to 10.0.0.1
        "64:ff9b::808:808",  # NAT64 to 8.8.8.8: the prefix itself is fine
        "::10.0.0.1",  # IPv4-compatible (deprecated): outside global unicast
        "::8.8.8.8",
        "::ffff:8.8.8.8",  # IPv4-mapped: refused as a block
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "2001:0:4136:e378:8000:63bf:f5ff:fffe",  # Teredo, carrying 10.0.0.1
        "224.0.0.1",  # multicast
        "ff02::1",
        "4000::1",  # IPv6 space IANA has not given out
    ],
)
def test_addresses_carried_or_outside_unicast_are_refused(address: str) -> None:
    expected = address == "64:ff9b::808:808"
    assert _public(address) is expected
