"""The web app's icons as PNG, drawn here (the favicon's heart on the edition's red, with room
around it for masks that cut a circle): no image file to keep in step with the SVG."""

from __future__ import annotations

import struct
import zlib
from functools import cache

SIZES = (192, 512)
RED = (0x7A, 0x1F, 0x3D)
GOLD = (0xF6, 0xD3, 0x6B)


def _in_heart(x: float, y: float) -> bool:
    """Whether (x, y), both in -1.5..1.5 with y upwards, lies inside the heart curve."""
    a = x * x + y * y - 1
    return a * a * a - x * x * y * y * y <= 0


@cache
def icon_png(size: int) -> bytes:
    """A size x size PNG of the app's icon."""
    rows = bytearray()
    scale = 3.2 / size  # the heart spans about 60% of the icon: inside any mask's safe zone
    for row in range(size):
        rows.append(0)  # filter: none
        y = (size / 2 - row) * scale + 0.15
        for column in range(size):
            x = (column - size / 2) * scale
            rows.extend(GOLD if _in_heart(x * 1.1, y * 1.1) else RED)
    return _png(size, size, bytes(rows))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))  # fmt: skip
