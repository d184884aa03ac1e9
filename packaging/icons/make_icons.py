#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Draws the Placescope icon (three timeline lanes of bars on a rounded square) as resources/icons/placescope.svg
# and as PNGs for the hicolor sizes, with no library beyond the standard one. The outputs are committed;
# run this again only when the drawing changes: python3 packaging/icons/make_icons.py
import os
import struct
import zlib

SIZES = [16, 22, 24, 32, 48, 64, 128, 256]
# (x0, y0, x1, y1, radius, colour) in a 0..1 square, painted in order.
SHAPES = [
    (0.06, 0.06, 0.94, 0.94, 0.18, (0x1E, 0x35, 0x50)),
    (0.16, 0.22, 0.50, 0.34, 0.05, (0xF2, 0x9F, 0x3D)),
    (0.56, 0.22, 0.84, 0.34, 0.05, (0xF2, 0x9F, 0x3D)),
    (0.28, 0.44, 0.72, 0.56, 0.05, (0x5C, 0xC5, 0x8A)),
    (0.16, 0.66, 0.36, 0.78, 0.05, (0x4F, 0xB3, 0xE8)),
    (0.44, 0.66, 0.84, 0.78, 0.05, (0x4F, 0xB3, 0xE8)),
]


def inside(shape, x, y):
    x0, y0, x1, y1, r, _ = shape
    if x < x0 or x > x1 or y < y0 or y > y1:
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def render(size, samples=4):
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]  # premultiplied RGBA
            for sy in range(samples):
                for sx in range(samples):
                    x = (px + (sx + 0.5) / samples) / size
                    y = (py + (sy + 0.5) / samples) / size
                    colour = None
                    for shape in SHAPES:
                        if inside(shape, x, y):
                            colour = shape[5]
                    if colour:
                        acc[0] += colour[0]
                        acc[1] += colour[1]
                        acc[2] += colour[2]
                        acc[3] += 1
            n = samples * samples
            alpha = acc[3] / n
            if acc[3]:
                row += bytes([round(acc[0] / acc[3]), round(acc[1] / acc[3]), round(acc[2] / acc[3]), round(alpha * 255)])
            else:
                row += bytes(4)
        rows.append(bytes(row))
    return rows


def png(size, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def svg():
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">']
    for x0, y0, x1, y1, r, (red, green, blue) in SHAPES:
        parts.append(f'  <rect x="{x0 * 256:g}" y="{y0 * 256:g}" width="{(x1 - x0) * 256:g}" height="{(y1 - y0) * 256:g}" '
                     f'rx="{r * 256:g}" fill="#{red:02x}{green:02x}{blue:02x}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "icons")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "placescope.svg"), "w") as f:
        f.write(svg())
    for size in SIZES:
        folder = os.path.join(out, "hicolor", f"{size}x{size}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "placescope.png"), "wb") as f:
            f.write(png(size, render(size)))


if __name__ == "__main__":
    main()
