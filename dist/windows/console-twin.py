#!/usr/bin/env python3
"""Writes a copy of a Windows exe marked as a console program (what `editbin /SUBSYSTEM:CONSOLE`
does): license-desk.exe is a GUI program, so the Start menu opens no terminal window, and its
twin license-desk.com is what a terminal or a script runs (`license-desk` finds the .com first),
so that they wait for it, see its output and get its exit code.

Usage: console-twin.py IN.exe OUT.com
"""
import struct
import sys

GUI, CONSOLE = 2, 3


def main(source: str, target: str) -> None:
    image = bytearray(open(source, "rb").read())
    if image[:2] != b"MZ":
        sys.exit(f"{source}: not a Windows program (no MZ header)")
    pe = struct.unpack_from("<I", image, 0x3C)[0]
    if image[pe : pe + 4] != b"PE\0\0":
        sys.exit(f"{source}: not a Windows program (no PE header)")
    # The optional header follows the 4-byte signature and the 20-byte file header; its
    # Subsystem field is at offset 68 in both PE32 and PE32+.
    field = pe + 4 + 20 + 68
    subsystem = struct.unpack_from("<H", image, field)[0]
    if subsystem != GUI:
        sys.exit(f"{source}: subsystem {subsystem}, expected {GUI} (a GUI program)")
    struct.pack_into("<H", image, field, CONSOLE)
    with open(target, "wb") as out:
        out.write(image)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
