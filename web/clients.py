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


def forwarded_client(forwarded_for, proxies, peer):
    """The client's address as werkzeug's ProxyFix(x_for=proxies) makes it: the `proxies`-th address
    from the right of X-Forwarded-For (the one the first trusted proxy saw), else the peer's own.
    web/worker.py counts a client's requests by it before the app sees them; app.py trusts the same."""
    said = [part.strip() for part in (forwarded_for or '').split(',') if part.strip()]
    return said[-proxies] if proxies and len(said) >= proxies else peer
