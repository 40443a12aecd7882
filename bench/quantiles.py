"""The quantiles every bench reports (p50, p95, p99), computed one way, here: statistics.quantiles
with method='inclusive', the times measured taken as all there are, so a p95 or p99 lies between two
of them and never past the slowest (the default, 'exclusive', puts it beyond the slowest when there
are fewer than 20 or 100 times); a lone time is each of its quantiles."""

import statistics


def cut(times, *percents):
    """The given percentiles of `times` (whole numbers from 1 to 99: cut(times, 50, 95)), as a tuple;
    None for each when there is no time."""
    times = list(times)
    if len(times) < 2:
        return tuple(times[0] if times else None for _ in percents)
    q = statistics.quantiles(times, n=100, method='inclusive')
    return tuple(q[p - 1] for p in percents)
