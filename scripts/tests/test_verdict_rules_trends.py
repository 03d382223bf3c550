#!/usr/bin/env python3
"""verdict_rules.trends: monotone, saturates, keeps_rising, scales and drops."""

import unittest

import _common as C
import verdict_rules as VR
from _common import MiB, axes
from _rules import SAT, blocks_sweep, by_backend, evaluate, evaluate_v2


MONO = {"kind": "monotone", "candidate": {"variant": "tree"}, "x": "group_size",
        "metric": "fraction:dram@reduce", "direction": "increasing", "tolerance": 0.05}


def sweep(fractions, seg="1024", **kw):
    return [C.make_v2_point(axes=axes(gs, seg), fraction=f, **kw) for gs, f in zip((64, 128, 256, 512), fractions)]


class MonotoneTest(unittest.TestCase):
    def test_holds_within_tolerance(self):
        vs = evaluate_v2(MONO, sweep([0.5, 0.7, 0.68, 0.8]))  # 0.7 -> 0.68 is -2.9%
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("group_size=64 0.5, group_size=128 0.7, group_size=256 0.68, group_size=512 0.8",
                      vs[0].detail)

    def test_does_not_hold_against_the_direction(self):
        vs = evaluate_v2(MONO, sweep([0.5, 0.7, 0.6, 0.8]))  # 0.7 -> 0.6 is -14.3%
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("group_size=128 -> 256: 0.7 -> 0.6 (-14.3%)", vs[0].detail)

    def test_decreasing_total_time(self):
        rule = dict(MONO, metric="reduce", direction="decreasing")
        # higher fractions = shorter reduce phases
        self.assertEqual([v.verdict for v in evaluate_v2(rule, sweep([0.5, 0.6, 0.7, 0.8]))], [VR.HOLDS])
        self.assertEqual([v.verdict for v in evaluate_v2(rule, sweep([0.5, 0.6, 0.4, 0.8]))], [VR.DOES_NOT_HOLD])

    def test_per_series(self):
        # each segment's line increases; merged into one series they would not
        pts = sweep([0.2, 0.3, 0.4, 0.5], seg="1024") + sweep([0.6, 0.7, 0.8, 0.9], seg="65536")
        vs = evaluate_v2(MONO, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("segment=1024", vs[0].detail)
        self.assertIn("segment=65536", vs[0].detail)
        pts[-1] = C.make_v2_point(axes=axes(512, 65536), fraction=0.5)  # one line breaks
        vs = evaluate_v2(MONO, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("segment=65536", vs[0].detail.split("broken:")[1])

    def test_per_device(self):
        pts = sweep([0.5, 0.6, 0.7, 0.8]) + sweep([0.8, 0.6, 0.5, 0.4], backend="opencl", device_name="PoCL")
        vs = by_backend(evaluate_v2(MONO, pts))
        self.assertEqual((vs["cuda"].verdict, vs["opencl"].verdict), (VR.HOLDS, VR.DOES_NOT_HOLD))

    def test_not_run_with_fewer_than_two_points_per_series(self):
        pts = sweep([0.5, 0.6])
        pts[1] = C.make_v2_point(axes=axes(128), status="error", error="launch failed")
        vs = evaluate_v2(MONO, pts + [C.make_v2_point(axes=axes(256), status="skipped")])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        self.assertIn("launch failed", vs[0].detail)

    def test_failed_point_does_not_hold(self):
        pts = sweep([0.5, 0.6, 0.7])
        pts[1] = C.make_v2_point(axes=axes(128), fraction=0.6, validation="failed")
        self.assertEqual([v.verdict for v in evaluate_v2(MONO, pts)], [VR.DOES_NOT_HOLD])

    def test_skipped_point_is_ignored(self):
        pts = sweep([0.5, 0.6, 0.7]) + [C.make_v2_point(axes=axes(512), status="skipped", skip_reason="tile")]
        self.assertEqual([v.verdict for v in evaluate_v2(MONO, pts)], [VR.HOLDS])

    def test_size_bytes_on_version_1_points(self):
        rule = {"kind": "monotone", "candidate": {"framework": "mars"}, "x": "size_bytes",
                "metric": "total_ms", "direction": "increasing", "tolerance": 0.0}
        pts = [C.make_point("mars", "cuda", f"{s}MiB", s * MiB, t) for s, t in ((1, 1.0), (2, 1.5), (4, 3.0))]
        self.assertEqual([v.verdict for v in evaluate(rule, pts)], [VR.HOLDS])
        pts[2] = C.make_point("mars", "cuda", "4MiB", 4 * MiB, 1.4)
        self.assertEqual([v.verdict for v in evaluate(rule, pts)], [VR.DOES_NOT_HOLD])

    def test_bad_spec(self):
        vs = evaluate_v2(dict(MONO, direction="up"), sweep([0.5, 0.6]))
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad monotone rule"))
        vs = evaluate_v2({k: v for k, v in MONO.items() if k != "x"}, sweep([0.5, 0.6]))
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad monotone rule"))


class SweepShapeRulesTest(unittest.TestCase):
    def test_saturates(self):
        vs = evaluate_v2(SAT, blocks_sweep([0.2, 0.4, 0.6, 0.63]))  # last step +5%
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("last step group_size=256 -> 512 +5.0%", vs[0].detail)
        vs = evaluate_v2(SAT, blocks_sweep([0.2, 0.4, 0.6, 0.9]))   # still +50%
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("+50.0%", vs[0].detail)

    def test_saturates_per_series_and_failed_point(self):
        pts = blocks_sweep([0.2, 0.4, 0.41], other={"segment": "1024"}) + \
            blocks_sweep([0.2, 0.4, 0.8], other={"segment": "65536"})
        vs = evaluate_v2(SAT, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("segment=65536", vs[0].detail.split("broken:")[1])
        pts = blocks_sweep([0.2, 0.4, 0.41])
        pts[1] = C.make_v2_point("tree", {"group_size": "128"}, 0.4, validation="failed")
        self.assertEqual([v.verdict for v in evaluate_v2(SAT, pts)], [VR.DOES_NOT_HOLD])
        self.assertEqual([v.verdict for v in evaluate_v2(SAT, blocks_sweep([0.2]))], [VR.NOT_RUN])

    def test_keeps_rising(self):
        rule = dict(SAT, kind="keeps_rising", min_gain=0.1)
        rule.pop("max_gain")
        self.assertEqual([v.verdict for v in evaluate_v2(rule, blocks_sweep([0.2, 0.4, 0.6, 0.9]))], [VR.HOLDS])
        vs = evaluate_v2(rule, blocks_sweep([0.2, 0.4, 0.6, 0.62]))
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("gains >= 10.0%", vs[0].detail)

    def test_scales(self):
        rule = {"kind": "scales", "candidate": {"variant": "tree"}, "x": "groups", "metric": "rate:dram@reduce",
                "min_efficiency": 0.7}
        # 64 -> 512 groups is 8x; 0.05 -> 0.32 is 6.4x: efficiency 0.8
        vs = evaluate_v2(rule, blocks_sweep([0.05, 0.1, 0.2, 0.32], x="groups"))
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("efficiency 0.8", vs[0].detail)
        vs = evaluate_v2(rule, blocks_sweep([0.05, 0.1, 0.2, 0.2], x="groups"))  # 4x over 8x
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("efficiency 0.5", vs[0].detail)

    def test_drops_with_and_without_a_baseline(self):
        rule = {"kind": "drops", "candidate": {"variant": "tree"}, "x": "group_size", "metric": "rate:dram@reduce",
                "min_drop": 0.2}
        self.assertEqual([v.verdict for v in evaluate_v2(rule, blocks_sweep([0.9, 0.8, 0.5]))], [VR.HOLDS])
        self.assertEqual([v.verdict for v in evaluate_v2(rule, blocks_sweep([0.9, 0.5, 0.8]))], [VR.DOES_NOT_HOLD])
        # candidate over baseline: 0.9/0.3 = 3x at 64, 0.6/0.5 = 1.2x at 256: the gain falls by 60%
        with_base = dict(rule, baseline={"variant": "nol1"})
        pts = blocks_sweep([0.9, 0.8, 0.6]) + blocks_sweep([0.3, 0.4, 0.5], variant="nol1")
        vs = evaluate_v2(with_base, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("group_size=64 3, group_size=128 2, group_size=256 1.2", vs[0].detail)
        self.assertIn("over the baseline's", vs[0].detail)
        pts = blocks_sweep([0.9, 0.8, 0.6]) + blocks_sweep([0.3, 0.4, 0.2], variant="nol1")
        self.assertEqual([v.verdict for v in evaluate_v2(with_base, pts)], [VR.DOES_NOT_HOLD])
        # no baseline points: nothing to judge
        self.assertEqual([v.verdict for v in evaluate_v2(with_base, blocks_sweep([0.9, 0.6]))], [VR.NOT_RUN])

    def test_counter_metric(self):
        pts = blocks_sweep([0.5, 0.5, 0.5])
        for p, rate in zip(pts, (97.0, 60.0, 12.0)):
            p["counters"]["l1_hit_rate"] = rate
        rule = {"kind": "drops", "candidate": {"variant": "tree"}, "x": "group_size",
                "metric": "counter:l1_hit_rate", "min_drop": 0.5}
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [VR.HOLDS])


if __name__ == "__main__":
    unittest.main()
