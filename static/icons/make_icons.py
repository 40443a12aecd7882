"""Draw the app's icons (a card with a red diamond on card-table green) as PNG, with no library.

Run: python static/icons/make_icons.py  (writes icon-192.png and icon-512.png beside it)
"""

import struct
import zlib
from pathlib import Path

GREEN, WHITE, RED, SHADE = (11, 93, 30), (255, 255, 255), (190, 0, 0), (6, 60, 18)


def pixel(x, y, size):
    """The colour at (x, y): a white rounded card, a red diamond on it, green around."""
    u, v = x / size, y / size
    left, right, top, bottom, r = 0.24, 0.76, 0.14, 0.86, 0.06
    dx = max(left + r - u, 0, u - (right - r))
    dy = max(top + r - v, 0, v - (bottom - r))
    on_card = left <= u <= right and top <= v <= bottom and dx * dx + dy * dy <= r * r
    if not on_card:
        sx, sy = u - 0.02, v - 0.02               # a soft shadow down and to the right
        return SHADE if left <= sx <= right and top <= sy <= bottom else GREEN
    if abs(u - 0.5) / 0.17 + abs(v - 0.5) / 0.25 <= 1:
        return RED
    return WHITE


def png(size):
    rows = b''.join(b'\x00' + bytes(c for x in range(size) for c in pixel(x + 0.5, y + 0.5, size))
                    for y in range(size))

    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    header = struct.pack('>IIBBBBB', size, size, 8, 2, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b'')


if __name__ == '__main__':
    here = Path(__file__).parent
    for size in (192, 512):
        (here / f'icon-{size}.png').write_bytes(png(size))
