"""Who a client is, for every per-client limit (connections, the solver, pictures, new games): its
address as the server sees it, or as the trusted proxy says (SCORER_PROXIES); an IPv6 client by its
/64, the block one household or phone is given, so that it cannot take a fresh budget with each of
its addresses."""

import ipaddress


def client_of(address):
    """'203.0.113.7', '2001:db8:1:2::/64' (for any address in that /64), or the text as given."""
    try:
        ip = ipaddress.ip_address((address or '').strip())
    except ValueError:
        return address or ''
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f'{ip}/64', strict=False))
    return str(ip)
