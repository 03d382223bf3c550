#!/usr/bin/env python3
"""Machine-readable verdict rules for harness results (scripts/verdict_rules/,
over the results-document model of scripts/results_doc.py).

A rule is the object in a results document's "experiment.verdict"; its "kind"
selects a function in RULES. Each rule function receives the rule object and
the experiment's points (merged over every results file with that experiment
id) and returns one Verdict per candidate backend/device:

    holds / does not hold / not run

with a detail string holding the numbers that decided it. An unknown kind gives
"not evaluated (unknown rule kind X)". Adding a rule is one function:

    @rule("my_kind")
    def my_kind(spec: dict, points: list[dict]) -> list[Verdict]:
        ...

Rules ignore skipped points (status "skipped", results format version 2): a
skipped point is neither a failure nor an error; a device where every matching
point was skipped is "not run".

Metrics (stat(), the rules' "metric", the plots' "y"): "total_ms", a phase
name, "throughput_gbps", "rate:<name>" (the value of the point's rate <name>)
and "fraction:<name>" (that rate's fraction of its measured ceiling); the last
three are higher-is-better. "counter:<name>" is a point counter (e.g. a hit
rate merged from Nsight Compute by scripts/ncu_counters.py).

Used as a script it prints the verdicts of the given files as JSON, or with
--text one line per verdict as the report writes it (`harness run
--experiment` ends with these lines):

    python3 scripts/verdicts.py [--text] RESULTS.json...
"""

from __future__ import annotations

import json
import sys

from results_doc import ResultsInputError, device_label, load_documents
from verdict_rules import Verdict, evaluate_documents


def verdict_line(v: Verdict) -> str:
    """'verdict <experiment> on <device>: <verdict> — <detail>' (+ its note)."""
    where = device_label((v.backend, v.device_index, v.device)) if v.backend is not None else "all devices"
    line = f"verdict {v.experiment} on {where}: {v.verdict}" + (f" \u2014 {v.detail}" if v.detail else "")
    return line + (f" [note: {v.note}]" if v.note else "")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    text = args[0] == "--text"
    if text:
        args = args[1:]
        if not args:
            print("verdicts.py: --text needs results files", file=sys.stderr)
            return 2
    try:
        docs = load_documents(args)
    except ResultsInputError as e:
        print(f"verdicts.py: {e}", file=sys.stderr)
        return 2
    verdicts = evaluate_documents(docs)
    if text:
        for v in verdicts:
            print(verdict_line(v))
        return 0
    json.dump([v.to_dict() for v in verdicts], sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
