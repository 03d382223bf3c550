#!/usr/bin/env python3
"""verdict_rules.counts: within_factor (a counter against another counter of the same point)."""

import unittest

import _common as C
import verdict_rules as VR
from _rules import by_backend, evaluate_v2

RULE = {"kind": "within_factor", "candidate": {"framework": "tables"}, "metric": "counter:user_lines",
        "of": "counter:paper_mars_lines", "min_ratio": 0, "max_ratio": 1.5}


def row(app, lines, paper, **kw):
    """A point of tables/user-code counting `lines` beside the paper's `paper`."""
    p = C.make_v2_point("user-code", {}, framework="tables", app=app, **kw)
    if p.get("status") == "ok" or p.get("status") == "failed":
        p["counters"] = {"user_lines": float(lines), "paper_mars_lines": float(paper)}
    return p


class WithinFactorTest(unittest.TestCase):
    def test_holds(self):
        vs = evaluate_v2(RULE, [row("mars-ii", 80, 375), row("mars-pvr", 152, 152)])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("mars-ii: user_lines 80 = 0.21 x paper_mars_lines 375", vs[0].detail)
        self.assertIn("0 <= user_lines / paper_mars_lines <= 1.5", vs[0].detail)

    def test_does_not_hold_outside_the_factor(self):
        vs = evaluate_v2(RULE, [row("mars-ii", 80, 375), row("mars-sm", 400, 173)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("mars-sm: user_lines 400 = 2.31 x", vs[0].detail)
        self.assertNotIn("mars-ii", vs[0].detail)

    def test_symmetric_by_default(self):
        rule = dict(RULE, max_ratio=2.0)
        del rule["min_ratio"]
        vs = evaluate_v2(rule, [row("mars-ii", 80, 375)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("needs 0.5 <= user_lines", vs[0].detail)

    def test_invalid_point_fails_and_missing_counter_is_not_run(self):
        vs = evaluate_v2(RULE, [row("mars-ii", 80, 375, validation="failed")])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("invalid result", vs[0].detail)
        p = C.make_v2_point("user-code", {}, framework="tables", app="mars-ii")
        vs = evaluate_v2(RULE, [p])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        self.assertIn("no counter 'user_lines'", vs[0].detail)

    def test_per_device_and_skipped(self):
        vs = by_backend(evaluate_v2(RULE, [
            row("mars-ii", 80, 375, backend="cpu", device_name="Host CPU"),
            row("mars-ii", 80, 375, backend="opencl", device_name="PoCL", status="skipped")]))
        self.assertEqual(vs["cpu"].verdict, VR.HOLDS)
        self.assertEqual(vs["opencl"].verdict, VR.NOT_RUN)

    def test_bad_rule(self):
        vs = evaluate_v2(dict(RULE, metric="user_lines"), [row("mars-ii", 80, 375)])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad within_factor rule"), vs[0].verdict)


if __name__ == "__main__":
    unittest.main()
