#!/usr/bin/env python3
"""verdict_rules.prediction: the model_error rule."""

import unittest

import _common  # noqa: F401 (puts scripts/ on sys.path)
import verdict_rules as VR
from _rules import evaluate_v2, speedup_sweep


class ModelErrorTest(unittest.TestCase):
    def test_model_error(self):
        rule = {"kind": "model_error", "candidate": {"variant": "model"}, "predicted": "counter:speedup_predicted",
                "measured": "counter:speedup_measured", "x": "groups", "max_median_error": 0.3}
        pts = speedup_sweep("model", [0.5, 0.5, 0.5])
        for p, (pred, meas) in zip(pts, [(0.5, 0.6), (1.0, 1.1), (2.0, 1.5)]):
            p["counters"].update(speedup_predicted=pred, speedup_measured=meas)
        vs = evaluate_v2(rule, pts)  # errors 16.7%, 9.1%, 33.3%: median 16.7%
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("median relative error 16.7% over 3 point(s)", vs[0].detail)
        pts[2]["counters"].update(speedup_predicted=4.0)  # errors 16.7, 9.1, 167: median still 16.7
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [VR.HOLDS])
        pts[1]["counters"].update(speedup_predicted=3.0)  # median 167%
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("needs < 30.0%", vs[0].detail)
        # small errors but opposite trends
        for p, (pred, meas) in zip(pts, [(1.0, 1.2), (1.0, 1.0), (0.9, 0.8)]):
            p["counters"].update(speedup_predicted=pred, speedup_measured=meas)
        pts[2]["counters"].update(speedup_predicted=1.3, speedup_measured=1.1)
        pts[0]["counters"].update(speedup_predicted=1.0, speedup_measured=1.2)
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("the trends differ", vs[0].detail)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, speedup_sweep("model", [0.5]))], [VR.NOT_RUN])


if __name__ == "__main__":
    unittest.main()
