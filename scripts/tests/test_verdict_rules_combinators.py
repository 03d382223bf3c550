#!/usr/bin/env python3
"""verdict_rules.combinators: all_of and first_of."""

import unittest

import _common  # noqa: F401 (puts scripts/ on sys.path)
import verdict_rules as VR
from _rules import SAT, blocks_sweep, evaluate_v2


class CombinatorsTest(unittest.TestCase):
    def test_all_of(self):
        holds = dict(SAT)
        broken = dict(SAT, max_gain=0.01)
        pts = blocks_sweep([0.2, 0.4, 0.6, 0.63])
        vs = evaluate_v2({"kind": "all_of", "rules": [holds, {"kind": "all_valid"}]}, pts)
        self.assertEqual([(v.verdict, v.rule) for v in vs], [(VR.HOLDS, "all_of")])
        self.assertIn("[1 saturates] holds", vs[0].detail)
        self.assertIn("[2 all_valid] holds", vs[0].detail)
        vs = evaluate_v2({"kind": "all_of", "rules": [holds, broken]}, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        not_run = dict(SAT, candidate={"variant": "absent"})
        vs = evaluate_v2({"kind": "all_of", "rules": [holds, not_run]}, pts)
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        vs = evaluate_v2({"kind": "all_of", "rules": []}, pts)
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad all_of rule"))

    def test_first_of_falls_back_when_the_first_is_not_run(self):
        pts = blocks_sweep([0.9, 0.8, 0.5])
        counters = {"kind": "drops", "candidate": {"variant": "tree"}, "x": "group_size",
                    "metric": "counter:l1_hit_rate", "min_drop": 0.2}
        proxy = dict(counters, metric="rate:dram@reduce")
        vs = evaluate_v2({"kind": "first_of", "rules": [counters, proxy]}, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("by rule 2 (drops) (rule 1 not run)", vs[0].detail)
        for p, rate in zip(pts, (90.0, 89.0, 88.0)):  # counters present: they decide
            p["counters"]["l1_hit_rate"] = rate
        vs = evaluate_v2({"kind": "first_of", "rules": [counters, proxy]}, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("by rule 1 (drops)", vs[0].detail)
        vs = evaluate_v2({"kind": "first_of", "rules": [dict(counters, candidate={"variant": "x"})]}, pts)
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])


if __name__ == "__main__":
    unittest.main()
