#!/usr/bin/env python3
"""verdict_rules.phases: the largest_phase and smallest_phase rules."""

import unittest

import _common as C
import verdict_rules as VR
from _common import MiB
from _rules import evaluate


class LargestPhaseTest(unittest.TestCase):
    def test_largest_phase_any_and_all(self):
        pts = [C.make_point("mars", "cuda", "1MiB", MiB, 10.0, app="a"),
               C.make_point("mars", "cuda", "1MiB", MiB, 10.0, app="b")]
        for r in pts[1]["repetitions"]:  # app b: reduce is the longer phase
            r["phases_ms"] = {"map": 1.0, "reduce": 9.0}
        rule = {"kind": "largest_phase", "candidate": {"framework": "mars"}, "phase": "reduce"}
        vs = evaluate(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("b@1MiB: largest reduce", vs[0].detail)
        self.assertEqual([v.verdict for v in evaluate(dict(rule, need="all"), pts)], [VR.DOES_NOT_HOLD])
        # excluding reduce leaves map the largest everywhere
        self.assertEqual([v.verdict for v in evaluate(dict(rule, exclude=["reduce"]), pts)],
                         [VR.DOES_NOT_HOLD])
        pts[0]["validation"] = {"status": "failed"}
        pts[0]["status"] = "failed"
        self.assertEqual([v.verdict for v in evaluate(rule, pts)], [VR.DOES_NOT_HOLD])

    def test_smallest_phase(self):
        pts = [C.make_point("bigkernel", "cuda", "1MiB", MiB, 10.0, app="a"),
               C.make_point("bigkernel", "cuda", "1MiB", MiB, 10.0, app="b")]
        for p, addrgen in zip(pts, (0.5, 3.0)):  # app b: addrgen is not the shortest
            for r in p["repetitions"]:
                r["phases_ms"] = {"addrgen": addrgen, "assembly": 2.0, "copy_in": 4.0, "merge": 0.1}
            p["phase_order"] = ["addrgen", "assembly", "copy_in", "merge"]
        rule = {"kind": "smallest_phase", "candidate": {"framework": "bigkernel"}, "phase": "addrgen",
                "exclude": ["merge"], "need": "all"}
        vs = evaluate(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("b@1MiB: smallest assembly", vs[0].detail)
        self.assertEqual([v.verdict for v in evaluate(dict(rule, need="any"), pts)], [VR.HOLDS])
        # merge (0.1 ms) would be the smallest everywhere if compared
        self.assertEqual([v.verdict for v in evaluate(dict(rule, exclude=[], need="any"), pts)],
                         [VR.DOES_NOT_HOLD])


if __name__ == "__main__":
    unittest.main()
