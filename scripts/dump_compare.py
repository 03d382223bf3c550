"""What the *_check.py scripts share: a dump compared line by line with the
lines a script expects (Python's own answer from the input)."""

from __future__ import annotations


def compare_dump(expected: list[str], dump_path: str, items: str) -> str | None:
    """None when the dump at `dump_path` has exactly the `expected` lines;
    else one line naming the first difference (`items` names what a line is:
    "keys", "pairs")."""
    with open(dump_path, "rb") as f:
        got = f.read().decode().splitlines()
    for line, (want, have) in enumerate(zip(expected, got), start=1):
        if want != have:
            return f"MISMATCH at dump line {line}: {have!r} (expected {want!r})"
    if len(got) != len(expected):
        return f"MISMATCH: {len(got)} dump lines (expected {len(expected)} {items})"
    return None
