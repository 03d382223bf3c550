"""What the workloads' check scripts share: a `--dump-output` dump read as
lines and compared with the lines the script expects."""


def read_dump(path: str) -> list[str]:
    with open(path, "rb") as f:
        return f.read().decode().splitlines()


def first_difference(expected: list[str], got: list[str]) -> str | None:
    """The first line where the dump differs from what is expected (or the
    line counts), as a message; None when they are identical."""
    for line, (want, have) in enumerate(zip(expected, got), start=1):
        if want != have:
            return f"dump line {line}: {have!r}, expected {want!r}"
    if len(got) != len(expected):
        return f"dump: {len(got)} lines, expected {len(expected)}"
    return None
