"""What the MAP_GROUP checks (patent_citation_check.py, geo_location_check.py)
share: the expected `--dump-output` of groups of ids, and the comparison.

A dump has one line per key, keys sorted by their bytes (unsigned):
`KEY<TAB>COUNT<TAB>ID,ID,...` with the key's ids ascending (an id given twice
under a key is listed twice) and COUNT their number. Exact: no tolerance."""
import sys


def expected_lines(groups):
    """groups: {key bytes: [int id, ...]} -> the dump's lines, without '\\n'."""
    return [key + b"\t" + str(len(ids)).encode() + b"\t" +
            b",".join(str(i).encode() for i in sorted(ids))
            for key, ids in sorted(groups.items())]


def compare(groups, dump_path):
    """0 when the dump at dump_path is the dump of `groups`, else 1 after
    printing the first differing line."""
    with open(dump_path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        print(f"MISMATCH: {dump_path} does not end with a newline")
        return 1
    got = data.split(b"\n")[:-1] if data else []
    expected = expected_lines(groups)
    for i in range(max(len(got), len(expected))):
        g = got[i] if i < len(got) else None
        e = expected[i] if i < len(expected) else None
        if g != e:
            print(f"MISMATCH at line {i + 1}: got {g!r}, expected {e!r} "
                  f"({len(got)} lines, {len(expected)} expected)")
            return 1
    print(f"identical: {len(expected)} keys, {sum(len(v) for v in groups.values())} ids")
    return 0


def main(group, usage):
    """The command line of a MAP_GROUP check: INPUT DUMP; `group(path)` reads
    the input into {key: [ids]} or raises ValueError for a malformed record."""
    if len(sys.argv) != 3:
        print(usage, file=sys.stderr)
        return 2
    try:
        groups = group(sys.argv[1])
    except ValueError as e:
        print(f"MALFORMED input: {e}")
        return 1
    return compare(groups, sys.argv[2])
