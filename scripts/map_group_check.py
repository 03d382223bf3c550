"""What the MAP_GROUP checks (patent_citation_check.py, geo_location_check.py,
kv_pairs_check.py, inverted_index_check.py) share: the expected
`--dump-output` of groups of ids, and the comparison; page_view_count_check.py
compares counts only (`KEY<TAB>COUNT`, no lists).

A dump has one line per key, keys sorted by their bytes (unsigned):
`KEY<TAB>COUNT<TAB>ID,ID,...` with the key's ids ascending (an id given twice
under a key is listed twice) and COUNT their number. With sums (kv-pairs) a
column follows COUNT: the ids' sum modulo 2^32; a dump whose lines stop there
(`KEY<TAB>COUNT<TAB>SUM`: a run that combined the values instead of listing
them) is checked on those. Exact: no tolerance."""
import sys


def expected_lines(groups, sums=False, lists=True):
    """groups: {key bytes: [int id, ...]} -> the dump's lines, without '\\n'."""
    lines = []
    for key, ids in sorted(groups.items()):
        fields = [key, str(len(ids)).encode()]
        if sums:
            fields.append(str(sum(ids) % 2**32).encode())
        if lists:
            fields.append(b",".join(str(i).encode() for i in sorted(ids)))
        lines.append(b"\t".join(fields))
    return lines


def compare(groups, dump_path, sums=False, lists=True):
    """0 when the dump at dump_path is the dump of `groups`, else 1 after
    printing the first differing line. With `sums`, a dump without lists is
    compared on counts and sums; without `lists`, the dump has none."""
    with open(dump_path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        print(f"MISMATCH: {dump_path} does not end with a newline")
        return 1
    got = data.split(b"\n")[:-1] if data else []
    if sums and got and got[0].count(b"\t") == 2:
        lists = False
    expected = expected_lines(groups, sums, lists)
    for i in range(max(len(got), len(expected))):
        g = got[i] if i < len(got) else None
        e = expected[i] if i < len(expected) else None
        if g != e:
            print(f"MISMATCH at line {i + 1}: got {g!r}, expected {e!r} "
                  f"({len(got)} lines, {len(expected)} expected)")
            return 1
    values = sum(len(v) for v in groups.values())
    if lists or sums:
        print(f"identical: {len(expected)} keys, {values} ids" + ("" if lists else " (counts and sums)"))
    else:
        print(f"identical: {len(expected)} keys, {values} records (counts)")
    return 0


def main(group, usage, sums=False, lists=True):
    """The command line of a MAP_GROUP check: INPUT DUMP; `group(path)` reads
    the input into {key: [ids]} or raises ValueError for a malformed record;
    `sums`: the dump has the sums column; `lists`: the dump lists the ids
    (without, it holds each key's count only)."""
    if len(sys.argv) != 3:
        print(usage, file=sys.stderr)
        return 2
    try:
        groups = group(sys.argv[1])
    except ValueError as e:
        print(f"MALFORMED input: {e}")
        return 1
    return compare(groups, sys.argv[2], sums, lists)
