#!/usr/bin/env python3
"""verdict_rules.best: best_grows (the quantity at each variant's fastest configuration)."""

import unittest

import _common as C
import verdict_rules as VR
from _common import axes
from _rules import by_backend, evaluate_v2

BEST = {"kind": "best_grows", "candidate": {"variant": "sl1"}, "baseline": {"variant": "hw"},
        "metric": "reduce", "by": "counter:threads"}


def sweep(variant, fractions, app="segsum"):
    """Points at group_size 64..512, `threads` = 100 x group_size; a higher
    fraction is a faster reduce."""
    out = []
    for gs, f in zip((64, 128, 256, 512), fractions):
        p = C.make_v2_point(variant=variant, axes=axes(gs, "1024"), fraction=f, app=app)
        p["counters"] = {"threads": 100 * gs}
        out.append(p)
    return out


class BestGrowsTest(unittest.TestCase):
    def test_holds_when_the_candidates_best_has_more_threads(self):
        pts = sweep("sl1", (0.2, 0.3, 0.4, 0.9)) + sweep("hw", (0.5, 0.9, 0.6, 0.4))
        vs = evaluate_v2(BEST, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS], vs[0].detail)
        self.assertIn("group_size=512", vs[0].detail)
        self.assertIn("group_size=128", vs[0].detail)

    def test_does_not_hold_when_fewer_on_some_app_or_equal_everywhere(self):
        pts = (sweep("sl1", (0.2, 0.3, 0.4, 0.9)) + sweep("hw", (0.5, 0.9, 0.6, 0.4))
               + sweep("sl1", (0.9, 0.3, 0.4, 0.2), app="other") + sweep("hw", (0.1, 0.2, 0.3, 0.9), app="other"))
        vs = evaluate_v2(BEST, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD], vs[0].detail)
        self.assertIn("other", vs[0].detail)
        same = sweep("sl1", (0.2, 0.3, 0.4, 0.9)) + sweep("hw", (0.2, 0.3, 0.4, 0.9))
        vs = evaluate_v2(BEST, same)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD], vs[0].detail)
        self.assertIn("equal everywhere", vs[0].detail)

    def test_not_run_without_a_baseline_and_by_is_required(self):
        vs = evaluate_v2(BEST, sweep("sl1", (0.2, 0.3, 0.4, 0.9)))
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN], vs[0].detail)
        vs = VR.evaluate("x", dict(BEST, by=""), sweep("sl1", (0.2, 0.3, 0.4, 0.9)))
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad best_grows rule: 'by'"), vs[0].verdict)


if __name__ == "__main__":
    unittest.main()
