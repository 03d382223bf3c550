#!/usr/bin/env python3
"""verdict_rules.counts: counter_exceeds (a counter of a point against a metric
of its paired baseline point: the paging bound of thesis table 6.3)."""

import unittest

import _common as C
import results_doc as rd
import verdict_rules as VR
from _rules import by_backend, evaluate_v2

RULE = {"kind": "counter_exceeds", "candidate": {"variant": "combining-paging-bound"},
        "metrics": ["counter:paging_ms_4KiB_1_5x", "counter:paging_ms_1MiB_1_5x"],
        "baseline": {"variant": "combining"}, "of": "total_ms", "min_ratio": 1.0, "at": "all"}


def sepo(**kw):
    return C.make_v2_point("combining", {}, framework="hashtable", app="netflix", **kw)


def bound(small, large, **kw):
    """The paging bound's point with the 4 KiB and 1 MiB times as multiples of
    the SePo point's total time."""
    p = C.make_v2_point("combining-paging-bound", {}, framework="hashtable", app="netflix", **kw)
    if p.get("status") in ("ok", "failed"):
        total = rd.stat(sepo(), "total_ms")
        p["counters"] = {"paging_ms_4KiB_1_5x": small * total, "paging_ms_1MiB_1_5x": large * total}
    return p


class CounterExceedsTest(unittest.TestCase):
    def test_holds_when_some_counter_exceeds(self):
        vs = evaluate_v2(RULE, [sepo(), bound(0.5, 2.0)])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("netflix: paging_ms_1MiB_1_5x", vs[0].detail)
        self.assertIn("= 2.00 x combining total_ms", vs[0].detail)

    def test_does_not_hold_when_none_exceeds(self):
        vs = evaluate_v2(RULE, [sepo(), bound(0.5, 0.9)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("needs the largest of paging_ms_4KiB_1_5x, paging_ms_1MiB_1_5x > 1", vs[0].detail)
        self.assertIn("0.90 x", vs[0].detail)

    def test_one_metric(self):
        rule = dict(RULE, metric="counter:paging_ms_4KiB_1_5x")
        del rule["metrics"]
        vs = evaluate_v2(rule, [sepo(), bound(0.5, 2.0)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])

    def test_invalid_baseline_or_candidate_fails(self):
        vs = evaluate_v2(RULE, [sepo(validation="failed"), bound(0.5, 2.0)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("baseline hashtable/combining", vs[0].detail)
        vs = evaluate_v2(RULE, [sepo(), bound(0.5, 2.0, validation="failed")])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("invalid result", vs[0].detail)

    def test_not_run_without_baseline_or_counters(self):
        vs = evaluate_v2(RULE, [bound(0.5, 2.0)])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        self.assertIn("no baseline point", vs[0].detail)
        p = C.make_v2_point("combining-paging-bound", {}, framework="hashtable", app="netflix")
        vs = evaluate_v2(RULE, [sepo(), p])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        self.assertIn("none of the counters", vs[0].detail)

    def test_per_device_and_skipped(self):
        vs = by_backend(evaluate_v2(RULE, [
            sepo(), bound(0.5, 2.0),
            sepo(backend="opencl", device_name="PoCL"),
            bound(0.5, 2.0, backend="opencl", device_name="PoCL", status="skipped")]))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertEqual(vs["opencl"].verdict, VR.NOT_RUN)

    def test_bad_rule(self):
        vs = evaluate_v2(dict(RULE, metrics=["paging_ms"]), [sepo(), bound(0.5, 2.0)])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad counter_exceeds rule"), vs[0].verdict)
        rule = dict(RULE)
        del rule["baseline"]
        vs = evaluate_v2(rule, [sepo(), bound(0.5, 2.0)])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad counter_exceeds rule"), vs[0].verdict)


if __name__ == "__main__":
    unittest.main()
