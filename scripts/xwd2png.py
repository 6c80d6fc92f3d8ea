#!/usr/bin/env python3
"""Converts an X window dump (xwd -root, 24/32-bit TrueColor BGR, as Xvfb gives) to PNG with the
standard library only, so gui-journeys.sh needs no image tools beyond xwd."""
import struct
import sys
import zlib


def xwd_to_rgb_rows(data):
    fields = struct.unpack(">25I", data[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    bits_per_pixel, bytes_per_line, ncolors = fields[11], fields[12], fields[19]
    if bits_per_pixel not in (24, 32):
        raise SystemExit(f"xwd2png: {bits_per_pixel}-bit dumps are not supported (run Xvfb at depth 24)")
    step = bits_per_pixel // 8
    offset = header_size + ncolors * 12
    rows = []
    for y in range(height):
        line = data[offset + y * bytes_per_line: offset + y * bytes_per_line + width * step]
        row = bytearray(b"\x00")  # PNG filter: none
        for x in range(width):
            b, g, r = line[step * x], line[step * x + 1], line[step * x + 2]
            row += bytes((r, g, b))
        rows.append(bytes(row))
    return width, height, b"".join(rows)


def png_chunk(kind, payload):
    return (struct.pack(">I", len(payload)) + kind + payload +
            struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF))


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: xwd2png.py IN.xwd OUT.png")
    with open(sys.argv[1], "rb") as f:
        width, height, raw = xwd_to_rgb_rows(f.read())
    png = (b"\x89PNG\r\n\x1a\n" +
           png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
           png_chunk(b"IDAT", zlib.compress(raw, 6)) + png_chunk(b"IEND", b""))
    with open(sys.argv[2], "wb") as f:
        f.write(png)


if __name__ == "__main__":
    main()
