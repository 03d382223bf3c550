#!/usr/bin/env python3
"""verdict_rules.speedup: faster (pairing, metrics, vary, quorum, skipped points),
speedup_grows, mean_speedup, speedup_order and largest_speedups."""

import unittest

import _common as C
import verdict_rules as VR
from _common import MiB, axes
from _rules import by_backend, evaluate, evaluate_v2, speedup_sweep
from verdict_rules import speedup


FASTER = {"kind": "faster", "candidate": {"framework": "mars", "variant": "default"},
          "baseline": {"framework": "cpu"}, "metric": "total_ms", "at": "largest", "min_speedup": 1.0}


class FasterTest(unittest.TestCase):
    def base_points(self, mars_cuda_4=1.0, mars_ocl_4=20.0):
        return [C.make_point("cpu", "cpu", "1MiB", MiB, 3.0),
                C.make_point("cpu", "cpu", "4MiB", 4 * MiB, 10.0),
                C.make_point("mars", "cuda", "1MiB", MiB, 5.0),      # slower at the small size
                C.make_point("mars", "cuda", "4MiB", 4 * MiB, mars_cuda_4),
                C.make_point("mars", "opencl", "1MiB", MiB, 2.0),
                C.make_point("mars", "opencl", "4MiB", 4 * MiB, mars_ocl_4)]

    def test_holds_and_does_not_hold_at_largest(self):
        vs = by_backend(evaluate(FASTER, self.base_points()))
        self.assertEqual(set(vs), {"cuda", "opencl"})
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertIn("10x", vs["cuda"].detail)          # 10 ms / 1 ms
        self.assertIn("4MiB", vs["cuda"].detail)
        self.assertEqual(vs["opencl"].verdict, VR.DOES_NOT_HOLD)
        self.assertIn("0.5x", vs["opencl"].detail)       # 10 ms / 20 ms

    def test_a_speedup_within_noise_does_not_hold(self):
        # The mars/g256: 1.01x on the medians (68.9 vs 68.5 ms) while
        # separate runs of the same pair vary from 69 to 86 ms.
        rule = {"kind": "faster", "candidate": {"variant": "g256"}, "baseline": {"variant": "default"}}
        base = C.make_point("mars", "opencl", "1MiB", MiB, 68.9)
        cand = C.make_point("mars", "opencl", "1MiB", MiB, 68.5, variant="g256")
        base["repetitions"] = [{"total_ms": t, "validation": "passed"} for t in (68.7, 86.0, 68.9, 69.5, 68.8)]
        cand["repetitions"] = [{"total_ms": t, "validation": "passed"} for t in (68.0, 84.0, 68.5, 69.0, 68.3)]
        for p in (base, cand):
            p["summary"]["total_ms"]["median"] = sorted(r["total_ms"] for r in p["repetitions"])[2]
        vs = evaluate(rule, [base, cand])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD], vs[0].detail)
        self.assertIn("speedup 1.01x", vs[0].detail)
        self.assertIn("95% interval [", vs[0].detail)
        self.assertIn("within noise", vs[0].detail)
        self.assertIn("needs the 95% interval of the speedup above 1x", vs[0].detail)
        # The same medians judged without noise ("confidence": null) hold, as the old rule did.
        vs = evaluate(dict(rule, confidence=None), [base, cand])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS], vs[0].detail)
        self.assertIn("medians only", vs[0].detail)
        # A clear speedup holds with its interval above 1.
        cand["repetitions"] = [{"total_ms": t / 2, "validation": "passed"} for t in (68.0, 84.0, 68.9, 69.0, 68.3)]
        cand["summary"]["total_ms"]["median"] = 34.45
        vs = evaluate(rule, [base, cand])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS], vs[0].detail)
        self.assertIn("speedup 2x, 95% interval [", vs[0].detail)

    def test_interval_equals_harness_compare(self):
        # scripts/noise.py draws as harness/core/stats.cpp does: the interval
        # printed by `harness compare` for these samples (tests/cli checks the binary).
        import noise
        a = [2.00, 2.02, 1.98, 2.01, 1.99, 2.03, 1.97]
        b = [1.00, 1.01, 0.99, 1.005, 0.995, 1.015, 0.985]
        lo, hi = noise.bootstrap_ratio_of_medians(b, a)
        self.assertLess(lo, 2.0)
        self.assertGreater(hi, 2.0)
        self.assertEqual(noise.bootstrap_ratio_of_medians(b, a), (lo, hi))  # deterministic
        self.assertTrue(all(x != x for x in noise.bootstrap_ratio_of_medians([], a)))  # nan

    def test_without_samples_the_median_decides_and_says_so(self):
        rule = dict(FASTER, metric="throughput_gbps")
        pts = self.base_points()
        for p in pts:
            p["repetitions"] = p["repetitions"][:1]  # one repetition: no noise estimate
        vs = by_backend(evaluate(rule, pts))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertIn("median only: 1 repetition", vs["cuda"].detail)
        rule = dict(FASTER, metric="rate:dram@reduce")
        pts = [C.make_v2_point("tree", fraction=0.8), C.make_v2_point("cpu", fraction=0.4)]
        vs = evaluate({"kind": "faster", "candidate": {"variant": "tree"}, "baseline": {"variant": "cpu"},
                       "metric": "rate:dram@reduce"}, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS], vs[0].detail)
        self.assertIn("median only: no per-repetition rate:dram@reduce", vs[0].detail)

    def test_phase_sums_have_per_repetition_samples(self):
        p = C.make_point("mars", "cuda", "1MiB", MiB, 10.0)
        self.assertEqual(speedup.time_samples(p, "map+reduce"), [r["total_ms"] for r in p["repetitions"]])
        self.assertEqual(speedup.time_samples(p, "counter:x"), [])

    def test_at_all_sizes(self):
        rule = dict(FASTER, at="all")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, VR.DOES_NOT_HOLD)  # 3 / 5 at 1MiB
        self.assertIn("1MiB", vs["cuda"].detail)

    def test_min_speedup(self):
        vs = by_backend(evaluate(dict(FASTER, min_speedup=20.0), self.base_points()))
        self.assertEqual(vs["cuda"].verdict, VR.DOES_NOT_HOLD)

    def test_not_run_when_candidate_errors_at_largest(self):
        pts = self.base_points()
        pts[3] = C.make_point("mars", "cuda", "4MiB", 4 * MiB, 0, status="error", error="out of memory")
        vs = by_backend(evaluate(FASTER, pts))
        self.assertEqual(vs["cuda"].verdict, VR.NOT_RUN)
        self.assertIn("out of memory", vs["cuda"].detail)

    def test_not_run_without_baseline_or_candidate(self):
        only_mars = [p for p in self.base_points() if p["framework"] == "mars"]
        vs = evaluate(FASTER, only_mars)
        self.assertTrue(vs)
        self.assertTrue(all(v.verdict == VR.NOT_RUN for v in vs))
        only_cpu = [p for p in self.base_points() if p["framework"] == "cpu"]
        vs = evaluate(FASTER, only_cpu)
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])

    def test_invalid_involved_point_does_not_hold(self):
        pts = self.base_points()
        pts[1] = C.make_point("cpu", "cpu", "4MiB", 4 * MiB, 10.0, status="failed", validation="failed")
        vs = by_backend(evaluate(FASTER, pts))
        self.assertEqual(vs["cuda"].verdict, VR.DOES_NOT_HOLD)
        self.assertIn("invalid", vs["cuda"].detail)

    def test_baseline_prefers_same_device(self):
        # a mars/hash candidate against mars/default on the same GPU, with
        # mars/default also present on another device
        rule = {"kind": "faster", "candidate": {"framework": "mars", "variant": "hash"},
                "baseline": {"framework": "mars", "variant": "default"}}
        pts = [C.make_point("mars", "cuda", "4MiB", 4 * MiB, 2.0, variant="hash"),
               C.make_point("mars", "cuda", "4MiB", 4 * MiB, 4.0),
               C.make_point("mars", "opencl", "4MiB", 4 * MiB, 1.0)]
        vs = evaluate(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("2x", vs[0].detail)

    def test_throughput_metric_higher_is_better(self):
        rule = dict(FASTER, metric="throughput_gbps")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertEqual(vs["opencl"].verdict, VR.DOES_NOT_HOLD)

    def test_phase_metric(self):
        rule = dict(FASTER, metric="map")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)

    def test_sum_of_phases_metric(self):
        rule = dict(FASTER, metric="map+reduce")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertEqual(vs["opencl"].verdict, VR.DOES_NOT_HOLD)


class FasterVaryTest(unittest.TestCase):
    """'vary': candidate and baseline differ in those axes by design (2 GPUs
    over 1) and pair on the others (N)."""

    def points(self):
        def pt(n, gpus, fraction):
            return C.make_v2_point(variant="gpu-multi", framework="streamgraph", app="sg-des",
                                   axes={"n": str(n), "gpus": str(gpus)}, fraction=fraction)
        return [pt(4, 1, 0.9), pt(16, 1, 0.005), pt(4, 2, 0.9), pt(16, 2, 0.02)]

    RULE = {"kind": "faster", "candidate": {"framework": "streamgraph", "params": {"gpus": 2}},
            "baseline": {"framework": "streamgraph", "params": {"gpus": 1}},
            "metric": "total_ms", "at": "all", "min_speedup": 1.5, "quorum": 0.0}

    def test_pairs_on_the_other_axes(self):
        vs = evaluate_v2(dict(self.RULE, vary=["gpus"]), self.points())
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS], vs[0].detail)
        self.assertIn("n=16", vs[0].detail)

    def test_without_vary_no_exact_pair(self):
        # every candidate falls back to the fastest baseline of its app (N = 4)
        vs = evaluate_v2(self.RULE, self.points())
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD], vs[0].detail)

    def test_a_skipped_baseline_pairs_with_nothing(self):
        # gpus=1 has no solution at N = 16: the 2-GPU point there pairs with
        # nothing (noted), not with the 1-GPU point at N = 4
        pts = self.points()
        pts[1] = C.make_v2_point(variant="gpu-multi", framework="streamgraph", app="sg-des",
                                 axes={"n": "16", "gpus": "1"}, status="skipped", skip_reason="no solution")
        vs = evaluate_v2(dict(self.RULE, vary=["gpus"], min_speedup=0.5, quorum=None), pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS], vs[0].detail)
        self.assertIn("n=16", vs[0].detail)
        self.assertIn("no baseline (skipped there)", vs[0].detail)
        self.assertNotIn("n=16: speedup", vs[0].detail)

    def test_a_baseline_skipped_on_the_candidates_device_is_not_taken_from_another(self):
        # thesis.fig6_11: the pinned heap (baseline) cannot run on NVIDIA
        # OpenCL; OpenCL's SePo points are not judged against cuda's pinned ones
        rule = {"kind": "faster", "candidate": {"framework": "mars", "variant": "hash"},
                "baseline": {"framework": "mars", "variant": "default"}}
        declined = C.make_point("mars", "opencl", "4MiB", 4 * MiB, 1.0)
        declined["status"] = "skipped"
        declined["skip_reason"] = "no zero-copy host memory"
        pts = [C.make_point("mars", "cuda", "4MiB", 4 * MiB, 2.0, variant="hash"),
               C.make_point("mars", "cuda", "4MiB", 4 * MiB, 4.0),
               C.make_point("mars", "opencl", "4MiB", 4 * MiB, 1.5, variant="hash"), declined]
        vs = by_backend(evaluate(rule, pts))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS, vs["cuda"].detail)
        self.assertEqual(vs["opencl"].verdict, VR.NOT_RUN, vs["opencl"].detail)
        self.assertIn("skipped on this device: no zero-copy host memory", vs["opencl"].detail)
        pts.pop()  # not declined there, only missing: the other device's baseline stands in
        vs = by_backend(evaluate(rule, pts))
        self.assertEqual(vs["opencl"].verdict, VR.HOLDS, vs["opencl"].detail)

    def test_vary_must_be_a_list(self):
        with self.assertRaises(ValueError):
            speedup.faster(dict(self.RULE, vary="gpus"), self.points())


class FasterSkippedTest(unittest.TestCase):
    def test_faster_ignores_skipped(self):
        rule = {"kind": "faster", "candidate": {"variant": "shuffle"}, "baseline": {"variant": "tree"},
                "metric": "rate:dram@reduce", "at": "all"}
        pts = [C.make_v2_point("tree", axes(64), 0.5), C.make_v2_point("shuffle", axes(64), 0.6),
               C.make_v2_point("tree", axes(256), 0.7), C.make_v2_point("shuffle", axes(256), 0.9),
               C.make_v2_point("shuffle", axes(1024), status="skipped", skip_reason="tile")]
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        # paired by equal axis values: 0.6/0.5 and 0.9/0.7
        self.assertIn("group_size=64 segment=1024: speedup 1.2x", vs[0].detail)
        self.assertIn("group_size=256 segment=1024: speedup 1.29x", vs[0].detail)
        self.assertIn("GB/s", vs[0].detail)
        # a wrong case: shuffle slower at one size
        pts[3] = C.make_v2_point("shuffle", axes(256), 0.6)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [VR.DOES_NOT_HOLD])

    def test_faster_all_candidates_skipped_is_not_run(self):
        rule = {"kind": "faster", "candidate": {"variant": "shuffle"}, "baseline": {"variant": "tree"}}
        vs = evaluate_v2(rule, [C.make_v2_point("tree", axes(64)),
                                C.make_v2_point("shuffle", axes(64), status="skipped", skip_reason="no warp shuffle")])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        self.assertIn("no warp shuffle", vs[0].detail)


class FasterQuorumTest(unittest.TestCase):
    def apps_points(self, mars_ms):
        pts = []
        for app, ms in zip(("a", "b", "c"), mars_ms):
            pts.append(C.make_point("mars", "cuda", "1MiB", MiB, ms, app=app))
            pts.append(C.make_point("cpu", "cpu", "1MiB", MiB, 10.0, app=app))
        return pts

    def test_faster_with_a_quorum_needs_more_than_that_share(self):
        rule = dict(FASTER, quorum=0.5)
        vs = evaluate(rule, self.apps_points([5.0, 8.0, 20.0]))
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("2 of 3 speedups > 1x", vs[0].detail)
        vs = evaluate(rule, self.apps_points([5.0, 12.0, 20.0]))
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertEqual([v.verdict for v in evaluate(FASTER, self.apps_points([5.0, 8.0, 20.0]))],
                         [VR.DOES_NOT_HOLD])


GROWS = {"kind": "speedup_grows", "candidate": {"variant": "software"}, "baseline": {"variant": "system"},
         "x": "groups", "metric": "reduce", "min_last": 1.0}


class SpeedupRulesTest(unittest.TestCase):
    def test_speedup_grows(self):
        pts = speedup_sweep("software", [0.2, 0.4, 0.8]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        vs = evaluate_v2(GROWS, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("groups=2 0.5x, groups=4 1x, groups=8 2x", vs[0].detail)
        # grows but stays below 1x at the largest count
        pts = speedup_sweep("software", [0.1, 0.2, 0.3]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        vs = evaluate_v2(GROWS, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("not above 1x", vs[0].detail)
        # falls
        pts = speedup_sweep("software", [0.8, 0.4, 0.6]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        self.assertEqual([v.verdict for v in evaluate_v2(GROWS, pts)], [VR.DOES_NOT_HOLD])
        # no baseline: not run
        self.assertEqual([v.verdict for v in evaluate_v2(GROWS, speedup_sweep("software", [0.2, 0.4]))],
                         [VR.NOT_RUN])

    def test_speedup_over_the_best_of_several_baselines(self):
        rule = dict(GROWS, baseline={"variant": ["system", "wave"]})
        pts = (speedup_sweep("software", [0.2, 0.9]) + speedup_sweep("system", [0.4, 0.4])
               + speedup_sweep("wave", [0.1, 0.8]))
        vs = evaluate_v2(rule, pts)  # over the faster one: 0.2/0.4 = 0.5x, then 0.9/0.8 = 1.12x
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("groups=2 0.5x, groups=4 1.12x", vs[0].detail)

    def test_failed_point_breaks_speedup_grows(self):
        pts = speedup_sweep("software", [0.2, 0.8]) + speedup_sweep("system", [0.4, 0.4])
        pts[1] = C.make_v2_point("software", {"groups": "4"}, 0.8, validation="failed")
        self.assertEqual([v.verdict for v in evaluate_v2(GROWS, pts)], [VR.DOES_NOT_HOLD])

    def test_mean_speedup(self):
        rule = {"kind": "mean_speedup", "candidate": {"variant": "software"}, "baseline": {"variant": "system"},
                "metric": "reduce", "max_mean": 1.0}
        pts = speedup_sweep("software", [0.2, 0.4, 0.5]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        vs = evaluate_v2(rule, pts)  # 0.5, 1, 1.25: geometric mean 0.855
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("geometric mean speedup 0.855x, 95% interval [", vs[0].detail)
        self.assertIn("over 3 pair(s)", vs[0].detail)
        rule = dict(rule, min_mean=1.0)
        rule.pop("max_mean")
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [VR.DOES_NOT_HOLD])
        both = dict(rule, max_mean=1.0)
        self.assertTrue(evaluate_v2(both, pts)[0].verdict.startswith("not evaluated (bad mean_speedup"))

    def test_speedup_order(self):
        rule = {"kind": "speedup_order", "candidate": {"variant": "software"}, "baseline": {"variant": "system"},
                "metric": "reduce", "by": "counter:isa_alu_fetch"}
        pts = []
        for app, sw, alu in (("dot", 0.2, 3.0), ("mm", 0.5, 1.0), ("km", 0.9, 0.5)):
            pts += speedup_sweep("software", [sw], app=app)
            base = speedup_sweep("system", [0.4], app=app)
            base[0]["counters"]["isa_alu_fetch"] = alu
            pts += base
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("dot: counter:isa_alu_fetch 3 speedup 0.5x", vs[0].detail)
        pts[3]["counters"]["isa_alu_fetch"] = 0.1  # mm now the most memory-bound but not the fastest
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [VR.DOES_NOT_HOLD])
        for p in pts:
            p["counters"].pop("isa_alu_fetch", None)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [VR.NOT_RUN])

    def test_largest_speedups(self):
        rule = {"kind": "largest_speedups", "candidate": {"variant": "software"}, "baseline": {"variant": "system"},
                "metric": "reduce", "apps": ["wc", "mca"]}

        def points(gains):
            pts = []
            for app, gain in gains.items():  # the speedup is the fractions' ratio
                pts += speedup_sweep("software", [0.4 * gain], app=app)
                pts += speedup_sweep("system", [0.4], app=app)
            return pts
        gains = {"wc": 2.0, "mca": 1.6, "km": 0.8, "dna": 0.5}
        vs = evaluate_v2(rule, points(gains))
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS], vs[0].detail)
        self.assertIn("wc 2x, mca 1.6x, km 0.8x, dna 0.5x", vs[0].detail)
        vs = evaluate_v2(rule, points(dict(gains, km=1.7)))  # km gains more than mca
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD], vs[0].detail)
        self.assertIn("do not gain the most", vs[0].detail)
        # Only each app's largest size counts: a smaller one where km gains 5x does not.
        small = speedup_sweep("software", [0.4 * 5], app="km") + speedup_sweep("system", [0.4], app="km")
        for p in small:
            p["dataset"] = dict(p["dataset"], label="1KiB", size_bytes=1024)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, points(gains) + small)], [VR.HOLDS])
        # A named app without a pair, or no other app to compare with: not run.
        self.assertEqual([v.verdict for v in evaluate_v2(dict(rule, apps=["wc", "upper"]), points(gains))],
                         [VR.NOT_RUN])
        self.assertEqual([v.verdict for v in evaluate_v2(rule, points({"wc": 2.0, "mca": 1.6}))], [VR.NOT_RUN])
        bad = evaluate_v2(dict(rule, apps=[]), points(gains))
        self.assertTrue(bad[0].verdict.startswith("not evaluated (bad largest_speedups"), bad[0].verdict)

if __name__ == "__main__":
    unittest.main()
