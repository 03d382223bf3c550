#!/usr/bin/env python3
"""verdicts.py: loading versions 1 and 2, the rule registry, metrics, and the
all_valid / faster / fraction_of_ceiling / monotone rules on crafted points."""

import os
import tempfile
import unittest

import _common as C
import verdicts as V

MiB = 1 << 20
FASTER = {"kind": "faster", "candidate": {"framework": "mars", "variant": "default"},
          "baseline": {"framework": "cpu"}, "metric": "total_ms", "at": "largest", "min_speedup": 1.0}


def by_backend(verdicts):
    return {v.backend: v for v in verdicts}


def evaluate(rule, points):
    # round-trip through merge_experiments so points carry their "_doc" like in real use
    exp = V.merge_experiments([C.make_document(points, rule)])[0]
    return V.evaluate_experiment(exp)


def evaluate_v2(rule, points):
    exp = V.merge_experiments([C.make_document_v2(points, rule)])[0]
    return V.evaluate_experiment(exp)


def axes(gs, seg="1024"):
    return {"group_size": str(gs), "segment": str(seg)}


class AllValidTest(unittest.TestCase):
    RULE = {"kind": "all_valid"}

    def test_holds(self):
        vs = evaluate(self.RULE, [C.make_point("mars", "cuda", "1MiB", MiB, 1.0),
                                  C.make_point("mars", "cuda", "4MiB", 4 * MiB, 2.0)])
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertEqual(vs[0].backend, "cuda")
        self.assertEqual(vs[0].experiment, "test.exp")

    def test_does_not_hold_per_device(self):
        vs = by_backend(evaluate(self.RULE, [
            C.make_point("mars", "cuda", "1MiB", MiB, 1.0),
            C.make_point("mars", "opencl", "1MiB", MiB, 1.0, status="failed", validation="failed"),
            C.make_point("mars", "opencl", "4MiB", 4 * MiB, 1.0)]))
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)
        self.assertEqual(vs["opencl"].verdict, V.DOES_NOT_HOLD)
        self.assertIn("mars/default/wordcount/opencl:0/gen/1MiB", vs["opencl"].detail)

    def test_error_point_breaks_it_and_all_errors_is_not_run(self):
        vs = by_backend(evaluate(self.RULE, [
            C.make_point("mars", "cuda", "1MiB", MiB, 1.0),
            C.make_point("mars", "cuda", "4MiB", 4 * MiB, 0, status="error", error="out of memory"),
            C.make_point("mars", "opencl", "1MiB", MiB, 0, status="error", error="no device")]))
        self.assertEqual(vs["cuda"].verdict, V.DOES_NOT_HOLD)
        self.assertEqual(vs["opencl"].verdict, V.NOT_RUN)
        self.assertIn("no device", vs["opencl"].detail)


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
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)
        self.assertIn("10x", vs["cuda"].detail)          # 10 ms / 1 ms
        self.assertIn("4MiB", vs["cuda"].detail)
        self.assertEqual(vs["opencl"].verdict, V.DOES_NOT_HOLD)
        self.assertIn("0.5x", vs["opencl"].detail)       # 10 ms / 20 ms

    def test_at_all_sizes(self):
        rule = dict(FASTER, at="all")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, V.DOES_NOT_HOLD)  # 3 / 5 at 1MiB
        self.assertIn("1MiB", vs["cuda"].detail)

    def test_min_speedup(self):
        vs = by_backend(evaluate(dict(FASTER, min_speedup=20.0), self.base_points()))
        self.assertEqual(vs["cuda"].verdict, V.DOES_NOT_HOLD)

    def test_not_run_when_candidate_errors_at_largest(self):
        pts = self.base_points()
        pts[3] = C.make_point("mars", "cuda", "4MiB", 4 * MiB, 0, status="error", error="out of memory")
        vs = by_backend(evaluate(FASTER, pts))
        self.assertEqual(vs["cuda"].verdict, V.NOT_RUN)
        self.assertIn("out of memory", vs["cuda"].detail)

    def test_not_run_without_baseline_or_candidate(self):
        only_mars = [p for p in self.base_points() if p["framework"] == "mars"]
        vs = evaluate(FASTER, only_mars)
        self.assertTrue(vs)
        self.assertTrue(all(v.verdict == V.NOT_RUN for v in vs))
        only_cpu = [p for p in self.base_points() if p["framework"] == "cpu"]
        vs = evaluate(FASTER, only_cpu)
        self.assertEqual([v.verdict for v in vs], [V.NOT_RUN])

    def test_invalid_involved_point_does_not_hold(self):
        pts = self.base_points()
        pts[1] = C.make_point("cpu", "cpu", "4MiB", 4 * MiB, 10.0, status="failed", validation="failed")
        vs = by_backend(evaluate(FASTER, pts))
        self.assertEqual(vs["cuda"].verdict, V.DOES_NOT_HOLD)
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
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("2x", vs[0].detail)

    def test_throughput_metric_higher_is_better(self):
        rule = dict(FASTER, metric="throughput_gbps")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)
        self.assertEqual(vs["opencl"].verdict, V.DOES_NOT_HOLD)

    def test_phase_metric(self):
        rule = dict(FASTER, metric="map")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)

    def test_sum_of_phases_metric(self):
        # map + reduce is the whole total in these points; a missing phase counts 0
        p = C.make_point("mars", "cuda", "4MiB", 4 * MiB, 10.0)
        self.assertAlmostEqual(V.stat(p, "map+reduce"), 10.0)
        self.assertAlmostEqual(V.stat(p, "map+sort"), 6.0)
        self.assertIsNone(V.stat(p, "sort+copy_out"))
        rule = dict(FASTER, metric="map+reduce")
        vs = by_backend(evaluate(rule, self.base_points()))
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)
        self.assertEqual(vs["opencl"].verdict, V.DOES_NOT_HOLD)


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
        self.assertEqual([v.verdict for v in vs], [V.HOLDS], vs[0].detail)
        self.assertIn("n=16", vs[0].detail)

    def test_without_vary_no_exact_pair(self):
        # every candidate falls back to the fastest baseline of its app (N = 4)
        vs = evaluate_v2(self.RULE, self.points())
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD], vs[0].detail)

    def test_a_skipped_baseline_pairs_with_nothing(self):
        # gpus=1 has no solution at N = 16: the 2-GPU point there pairs with
        # nothing (noted), not with the 1-GPU point at N = 4
        pts = self.points()
        pts[1] = C.make_v2_point(variant="gpu-multi", framework="streamgraph", app="sg-des",
                                 axes={"n": "16", "gpus": "1"}, status="skipped", skip_reason="no solution")
        vs = evaluate_v2(dict(self.RULE, vary=["gpus"], min_speedup=0.5, quorum=None), pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS], vs[0].detail)
        self.assertIn("n=16", vs[0].detail)
        self.assertIn("no baseline (skipped there)", vs[0].detail)
        self.assertNotIn("n=16: speedup", vs[0].detail)

    def test_vary_must_be_a_list(self):
        with self.assertRaises(ValueError):
            V.faster(dict(self.RULE, vary="gpus"), self.points())


class RegistryTest(unittest.TestCase):
    def test_unknown_kind(self):
        vs = evaluate({"kind": "monotonic_decrease"}, [C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
        self.assertEqual([v.verdict for v in vs], ["not evaluated (unknown rule kind monotonic_decrease)"])

    def test_no_rule(self):
        doc = C.make_document([C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
        doc["experiment"].pop("verdict", None)
        vs = V.evaluate_documents([doc])
        self.assertTrue(vs[0].verdict.startswith("not evaluated"))

    def test_new_rule_is_one_function(self):
        @V.rule("always")
        def always(spec, points):
            return [V.Verdict("", k[0], k[1], k[2], V.HOLDS, "by decree") for k in V.group_by_device(points)]
        try:
            vs = evaluate({"kind": "always"}, [C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
            self.assertEqual([(v.verdict, v.rule) for v in vs], [(V.HOLDS, "always")])
        finally:
            del V.RULES["always"]

    def test_bad_rule_spec(self):
        vs = evaluate(dict(FASTER, at="smallest"), [C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad faster rule"))

    def test_example_document(self):
        vs = by_backend(V.evaluate_documents([C.load_example()]))
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)
        self.assertEqual(vs["opencl"].verdict, V.NOT_RUN)


class LoadTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_reads_version_1_and_2(self):
        v1, ref, v2 = V.load_documents([C.EXAMPLE, C.REFERENCE, C.EXAMPLE_V2])
        self.assertEqual((v1["schema_version"], ref["schema_version"], v2["schema_version"]), (1, 1, 2))
        exps = {e.id: e for e in V.merge_experiments([v1, ref, v2])}
        self.assertEqual(set(exps), {"mars.wordcount-smoke", "core.reduction"})
        self.assertEqual(len(exps["mars.wordcount-smoke"].points), len(v1["points"]) + len(ref["points"]))
        self.assertEqual(exps["core.reduction"].documents, [2])

    def test_rejects_other_versions(self):
        for bad in (3, 0, "2", True, None):
            with self.subTest(version=bad):
                doc = C.load_example_v2()
                doc["schema_version"] = bad
                path = C.write_json(os.path.join(self.tmp.name, "bad.json"), doc)
                with self.assertRaises(V.ResultsInputError) as ctx:
                    V.load_document(path)
                self.assertIn("versions 1 and 2", str(ctx.exception))
                self.assertIn(repr(bad), str(ctx.exception))

    def test_reference_verdict_unchanged(self):
        vs = by_backend(V.evaluate_documents(V.load_documents([C.REFERENCE])))
        self.assertEqual(vs["cuda"].verdict, V.DOES_NOT_HOLD)
        self.assertIn("0.535x", vs["cuda"].detail)  # 1625.0 ms / 3035.0 ms at 1GiB

    def test_example_v2_verdict(self):
        vs = V.evaluate_documents([C.load_example_v2()])
        self.assertEqual([(v.backend, v.verdict, v.rule) for v in vs], [("cuda", V.HOLDS, "fraction_of_ceiling")])
        # best over group_size: 74.1% at segment 1024 (group 256), 85.9% at segment 1048576 (group 256)
        self.assertIn("74.1% of d2d_copy", vs[0].detail)
        self.assertIn("85.9% of d2d_copy", vs[0].detail)
        self.assertNotIn("group_size=64", vs[0].detail)


class PointHelpersV2Test(unittest.TestCase):
    def test_rate_and_fraction_metrics(self):
        p = C.make_v2_point(fraction=0.75)
        self.assertAlmostEqual(V.stat(p, "fraction:dram@reduce"), 0.75)
        self.assertAlmostEqual(V.stat(p, "rate:dram@reduce"), 0.75 * C.D2D)
        # min/max fall back to the median-based value
        self.assertAlmostEqual(V.stat(p, "rate:dram@reduce", "min"), 0.75 * C.D2D)
        self.assertAlmostEqual(V.stat(p, "fraction:dram@reduce", "max"), 0.75)
        self.assertIsNone(V.stat(p, "rate:h2d"))
        self.assertIsNone(V.stat(C.make_point("mars", "cuda", "1MiB", MiB, 1.0), "fraction:dram"))
        self.assertTrue(V.higher_is_better("rate:x") and V.higher_is_better("fraction:x"))
        self.assertFalse(V.higher_is_better("total_ms"))

    def test_fraction_without_field_is_value_over_ceiling(self):
        p = C.make_v2_point(fraction=0.5)
        p["rates"][0]["fraction"] = None
        self.assertAlmostEqual(V.stat(p, "fraction:dram@reduce"), 0.5)
        p["rates"][0]["ceiling_value"] = None
        self.assertIsNone(V.stat(p, "fraction:dram@reduce"))

    def test_skipped_axes_devices(self):
        p = C.make_v2_point(axes=axes(128, 65536), status="skipped", skip_reason="tile too large",
                            extra_devices=[("cuda", 1, "H100")])
        self.assertTrue(V.is_skipped(p))
        self.assertEqual(V.skip_reason(p), "tile too large")
        self.assertEqual(V.axes_text(p), "group_size=128 segment=65536")
        self.assertEqual(V.axes_text(p, skip=("group_size",)), "segment=65536")
        self.assertEqual(V.x_value(p, "group_size"), 128.0)
        self.assertEqual(V.point_devices(p), [("cuda", 0, "NVIDIA H100 80GB HBM3"), ("cuda", 1, "H100")])
        self.assertEqual(V.point_devices(C.make_point("mars", "cuda", "1MiB", MiB, 1.0)),
                         [("cuda", 0, "NVIDIA H100 80GB HBM3")])

    def test_matcher_compares_axis_values_as_text(self):
        p = C.make_v2_point(axes=axes(256, 1048576))
        self.assertTrue(V.matches(p, {"axes.segment": ["1048576", 65536]}))
        self.assertTrue(V.matches(p, {"params": {"group_size": 256}}))
        self.assertFalse(V.matches(p, {"axes.segment": 1024}))
        self.assertFalse(V.matches(p, {"axes.missing": "1"}))


class SkippedPointsTest(unittest.TestCase):
    def test_all_valid_ignores_skipped(self):
        vs = evaluate_v2({"kind": "all_valid"}, [
            C.make_v2_point(axes=axes(64)), C.make_v2_point(axes=axes(1024), status="skipped", skip_reason="too big"),
            C.make_v2_point(backend="opencl", device_name="PoCL", axes=axes(64), status="skipped",
                            skip_reason="no subgroups on this device")])
        vs = by_backend(vs)
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)
        self.assertIn("1 skipped", vs["cuda"].detail)
        self.assertEqual(vs["opencl"].verdict, V.NOT_RUN)
        self.assertIn("no subgroups on this device", vs["opencl"].detail)

    def test_all_valid_wrong_case_skipped_does_not_hide_a_failure(self):
        vs = evaluate_v2({"kind": "all_valid"}, [
            C.make_v2_point(axes=axes(64), validation="failed"),
            C.make_v2_point(axes=axes(1024), status="skipped")])
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])

    def test_faster_ignores_skipped(self):
        rule = {"kind": "faster", "candidate": {"variant": "shuffle"}, "baseline": {"variant": "tree"},
                "metric": "rate:dram@reduce", "at": "all"}
        pts = [C.make_v2_point("tree", axes(64), 0.5), C.make_v2_point("shuffle", axes(64), 0.6),
               C.make_v2_point("tree", axes(256), 0.7), C.make_v2_point("shuffle", axes(256), 0.9),
               C.make_v2_point("shuffle", axes(1024), status="skipped", skip_reason="tile")]
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        # paired by equal axis values: 0.6/0.5 and 0.9/0.7
        self.assertIn("group_size=64 segment=1024: speedup 1.2x", vs[0].detail)
        self.assertIn("group_size=256 segment=1024: speedup 1.29x", vs[0].detail)
        self.assertIn("GB/s", vs[0].detail)
        # a wrong case: shuffle slower at one size
        pts[3] = C.make_v2_point("shuffle", axes(256), 0.6)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [V.DOES_NOT_HOLD])

    def test_faster_all_candidates_skipped_is_not_run(self):
        rule = {"kind": "faster", "candidate": {"variant": "shuffle"}, "baseline": {"variant": "tree"}}
        vs = evaluate_v2(rule, [C.make_v2_point("tree", axes(64)),
                                C.make_v2_point("shuffle", axes(64), status="skipped", skip_reason="no warp shuffle")])
        self.assertEqual([v.verdict for v in vs], [V.NOT_RUN])
        self.assertIn("no warp shuffle", vs[0].detail)


class QuorumAndLargestPhaseTest(unittest.TestCase):
    def apps_points(self, mars_ms):
        pts = []
        for app, ms in zip(("a", "b", "c"), mars_ms):
            pts.append(C.make_point("mars", "cuda", "1MiB", MiB, ms, app=app))
            pts.append(C.make_point("cpu", "cpu", "1MiB", MiB, 10.0, app=app))
        return pts

    def test_faster_with_a_quorum_needs_more_than_that_share(self):
        rule = dict(FASTER, quorum=0.5)
        vs = evaluate(rule, self.apps_points([5.0, 8.0, 20.0]))
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("2 of 3 speedups > 1x", vs[0].detail)
        vs = evaluate(rule, self.apps_points([5.0, 12.0, 20.0]))
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertEqual([v.verdict for v in evaluate(FASTER, self.apps_points([5.0, 8.0, 20.0]))],
                         [V.DOES_NOT_HOLD])

    def test_largest_phase_any_and_all(self):
        pts = [C.make_point("mars", "cuda", "1MiB", MiB, 10.0, app="a"),
               C.make_point("mars", "cuda", "1MiB", MiB, 10.0, app="b")]
        for r in pts[1]["repetitions"]:  # app b: reduce is the longer phase
            r["phases_ms"] = {"map": 1.0, "reduce": 9.0}
        rule = {"kind": "largest_phase", "candidate": {"framework": "mars"}, "phase": "reduce"}
        vs = evaluate(rule, pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("b@1MiB: largest reduce", vs[0].detail)
        self.assertEqual([v.verdict for v in evaluate(dict(rule, need="all"), pts)], [V.DOES_NOT_HOLD])
        # excluding reduce leaves map the largest everywhere
        self.assertEqual([v.verdict for v in evaluate(dict(rule, exclude=["reduce"]), pts)],
                         [V.DOES_NOT_HOLD])
        pts[0]["validation"] = {"status": "failed"}
        pts[0]["status"] = "failed"
        self.assertEqual([v.verdict for v in evaluate(rule, pts)], [V.DOES_NOT_HOLD])


FRACTION = {"kind": "fraction_of_ceiling", "candidate": {"framework": "reduction"}, "rate": "dram@reduce",
            "at": "largest", "min_fraction": 0.8}


class FractionOfCeilingTest(unittest.TestCase):
    def test_holds(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=0.85),
                                    C.make_v2_point(axes=axes(256), fraction=0.92)])
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("85.0% of d2d_copy (2000.0 GB/s)", vs[0].detail)
        self.assertLess(vs[0].detail.index("group_size=64"), vs[0].detail.index("group_size=256"))
        self.assertIn("92.0% of d2d_copy", vs[0].detail)

    def test_does_not_hold_when_one_fraction_is_low(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=0.55),
                                    C.make_v2_point(axes=axes(256), fraction=0.92)])
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("needs >= 80.0%", vs[0].detail)
        self.assertIn("group_size=64 segment=1024: dram@reduce 1100.0 GB/s = 55.0%", vs[0].detail)
        self.assertNotIn("92.0%", vs[0].detail)  # only the low ones are listed

    def test_exactly_min_fraction_holds(self):
        vs = evaluate_v2(dict(FRACTION, min_fraction=0.75), [C.make_v2_point(fraction=0.75)])
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])

    def test_not_run_without_rate_or_ceiling(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=None),
                                    C.make_v2_point(axes=axes(256), ceiling=None)])
        self.assertEqual([v.verdict for v in vs], [V.NOT_RUN])
        self.assertIn("no rate 'dram@reduce'", vs[0].detail)
        self.assertIn("has no measured ceiling", vs[0].detail)
        # version 1 points have no rates at all
        vs = evaluate(FRACTION, [C.make_point("reduction", "cuda", "1MiB", MiB, 1.0)])
        self.assertEqual([v.verdict for v in vs], [V.NOT_RUN])

    def test_failed_validation_does_not_hold(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=0.95, validation="failed"),
                                    C.make_v2_point(axes=axes(256), fraction=0.95)])
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("invalid result", vs[0].detail)

    def test_at_largest_vs_all(self):
        pts = [C.make_v2_point(axes=axes(256), label="4MiB", size=4 * MiB, fraction=0.3),
               C.make_v2_point(axes=axes(256), fraction=0.9)]
        self.assertEqual([v.verdict for v in evaluate_v2(FRACTION, pts)], [V.HOLDS])
        vs = evaluate_v2(dict(FRACTION, at="all"), pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("4MiB", vs[0].detail)

    def test_skipped_and_error_points(self):
        pts = [C.make_v2_point(axes=axes(64), fraction=0.9),
               C.make_v2_point(axes=axes(1024), status="skipped", skip_reason="tile"),
               C.make_v2_point(axes=axes(128), status="error", error="out of memory")]
        vs = evaluate_v2(FRACTION, pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("out of memory", vs[0].detail)
        only_skipped = evaluate_v2(FRACTION, [pts[1]])
        self.assertEqual([v.verdict for v in only_skipped], [V.NOT_RUN])

    def test_per_device(self):
        vs = by_backend(evaluate_v2(FRACTION, [
            C.make_v2_point(fraction=0.9),
            C.make_v2_point(backend="opencl", device_name="PoCL", fraction=0.4)]))
        self.assertEqual(vs["cuda"].verdict, V.HOLDS)
        self.assertEqual(vs["opencl"].verdict, V.DOES_NOT_HOLD)

    def test_best_of(self):
        pts = [C.make_v2_point(axes=axes(64, 1024), fraction=0.5), C.make_v2_point(axes=axes(256, 1024), fraction=0.85),
               C.make_v2_point(axes=axes(64, 65536), fraction=0.6), C.make_v2_point(axes=axes(256, 65536), fraction=0.7)]
        rule = dict(FRACTION, best_of="group_size")
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])  # best at segment 65536 is 70%
        self.assertIn("segment=65536: dram@reduce 1400.0 GB/s = 70.0%", vs[0].detail)
        self.assertNotIn("50.0%", vs[0].detail)
        pts[3] = C.make_v2_point(axes=axes(256, 65536), fraction=0.81)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [V.HOLDS])
        self.assertEqual([v.verdict for v in evaluate_v2(FRACTION, pts)], [V.DOES_NOT_HOLD])  # without best_of

    def test_bad_spec(self):
        vs = evaluate_v2({"kind": "fraction_of_ceiling", "candidate": {}}, [C.make_v2_point()])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad fraction_of_ceiling rule"))


MONO = {"kind": "monotone", "candidate": {"variant": "tree"}, "x": "group_size",
        "metric": "fraction:dram@reduce", "direction": "increasing", "tolerance": 0.05}


def sweep(fractions, seg="1024", **kw):
    return [C.make_v2_point(axes=axes(gs, seg), fraction=f, **kw) for gs, f in zip((64, 128, 256, 512), fractions)]


class MonotoneTest(unittest.TestCase):
    def test_holds_within_tolerance(self):
        vs = evaluate_v2(MONO, sweep([0.5, 0.7, 0.68, 0.8]))  # 0.7 -> 0.68 is -2.9%
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("group_size=64 0.5, group_size=128 0.7, group_size=256 0.68, group_size=512 0.8",
                      vs[0].detail)

    def test_does_not_hold_against_the_direction(self):
        vs = evaluate_v2(MONO, sweep([0.5, 0.7, 0.6, 0.8]))  # 0.7 -> 0.6 is -14.3%
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("group_size=128 -> 256: 0.7 -> 0.6 (-14.3%)", vs[0].detail)

    def test_decreasing_total_time(self):
        rule = dict(MONO, metric="reduce", direction="decreasing")
        # higher fractions = shorter reduce phases
        self.assertEqual([v.verdict for v in evaluate_v2(rule, sweep([0.5, 0.6, 0.7, 0.8]))], [V.HOLDS])
        self.assertEqual([v.verdict for v in evaluate_v2(rule, sweep([0.5, 0.6, 0.4, 0.8]))], [V.DOES_NOT_HOLD])

    def test_per_series(self):
        # each segment's line increases; merged into one series they would not
        pts = sweep([0.2, 0.3, 0.4, 0.5], seg="1024") + sweep([0.6, 0.7, 0.8, 0.9], seg="65536")
        vs = evaluate_v2(MONO, pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("segment=1024", vs[0].detail)
        self.assertIn("segment=65536", vs[0].detail)
        pts[-1] = C.make_v2_point(axes=axes(512, 65536), fraction=0.5)  # one line breaks
        vs = evaluate_v2(MONO, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("segment=65536", vs[0].detail.split("broken:")[1])

    def test_per_device(self):
        pts = sweep([0.5, 0.6, 0.7, 0.8]) + sweep([0.8, 0.6, 0.5, 0.4], backend="opencl", device_name="PoCL")
        vs = by_backend(evaluate_v2(MONO, pts))
        self.assertEqual((vs["cuda"].verdict, vs["opencl"].verdict), (V.HOLDS, V.DOES_NOT_HOLD))

    def test_not_run_with_fewer_than_two_points_per_series(self):
        pts = sweep([0.5, 0.6])
        pts[1] = C.make_v2_point(axes=axes(128), status="error", error="launch failed")
        vs = evaluate_v2(MONO, pts + [C.make_v2_point(axes=axes(256), status="skipped")])
        self.assertEqual([v.verdict for v in vs], [V.NOT_RUN])
        self.assertIn("launch failed", vs[0].detail)

    def test_failed_point_does_not_hold(self):
        pts = sweep([0.5, 0.6, 0.7])
        pts[1] = C.make_v2_point(axes=axes(128), fraction=0.6, validation="failed")
        self.assertEqual([v.verdict for v in evaluate_v2(MONO, pts)], [V.DOES_NOT_HOLD])

    def test_skipped_point_is_ignored(self):
        pts = sweep([0.5, 0.6, 0.7]) + [C.make_v2_point(axes=axes(512), status="skipped", skip_reason="tile")]
        self.assertEqual([v.verdict for v in evaluate_v2(MONO, pts)], [V.HOLDS])

    def test_size_bytes_on_version_1_points(self):
        rule = {"kind": "monotone", "candidate": {"framework": "mars"}, "x": "size_bytes",
                "metric": "total_ms", "direction": "increasing", "tolerance": 0.0}
        pts = [C.make_point("mars", "cuda", f"{s}MiB", s * MiB, t) for s, t in ((1, 1.0), (2, 1.5), (4, 3.0))]
        self.assertEqual([v.verdict for v in evaluate(rule, pts)], [V.HOLDS])
        pts[2] = C.make_point("mars", "cuda", "4MiB", 4 * MiB, 1.4)
        self.assertEqual([v.verdict for v in evaluate(rule, pts)], [V.DOES_NOT_HOLD])

    def test_bad_spec(self):
        vs = evaluate_v2(dict(MONO, direction="up"), sweep([0.5, 0.6]))
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad monotone rule"))
        vs = evaluate_v2({k: v for k, v in MONO.items() if k != "x"}, sweep([0.5, 0.6]))
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad monotone rule"))


def blocks_sweep(values, variant="tree", x="group_size", other=None, **kw):
    """A sweep of crafted points along `x` (powers of two from 64): the rate
    dram@reduce of each is values[i] x D2D GB/s."""
    pts = []
    for i, f in enumerate(values):
        ax = {x: str(64 << i)}
        ax.update(other or {})
        pts.append(C.make_v2_point(variant, ax, f, **kw))
    return pts


SAT = {"kind": "saturates", "candidate": {"variant": "tree"}, "x": "group_size",
       "metric": "rate:dram@reduce", "max_gain": 0.1}


class SweepShapeRulesTest(unittest.TestCase):
    def test_saturates(self):
        vs = evaluate_v2(SAT, blocks_sweep([0.2, 0.4, 0.6, 0.63]))  # last step +5%
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("last step group_size=256 -> 512 +5.0%", vs[0].detail)
        vs = evaluate_v2(SAT, blocks_sweep([0.2, 0.4, 0.6, 0.9]))   # still +50%
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("+50.0%", vs[0].detail)

    def test_saturates_per_series_and_failed_point(self):
        pts = blocks_sweep([0.2, 0.4, 0.41], other={"segment": "1024"}) + \
            blocks_sweep([0.2, 0.4, 0.8], other={"segment": "65536"})
        vs = evaluate_v2(SAT, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("segment=65536", vs[0].detail.split("broken:")[1])
        pts = blocks_sweep([0.2, 0.4, 0.41])
        pts[1] = C.make_v2_point("tree", {"group_size": "128"}, 0.4, validation="failed")
        self.assertEqual([v.verdict for v in evaluate_v2(SAT, pts)], [V.DOES_NOT_HOLD])
        self.assertEqual([v.verdict for v in evaluate_v2(SAT, blocks_sweep([0.2]))], [V.NOT_RUN])

    def test_keeps_rising(self):
        rule = dict(SAT, kind="keeps_rising", min_gain=0.1)
        rule.pop("max_gain")
        self.assertEqual([v.verdict for v in evaluate_v2(rule, blocks_sweep([0.2, 0.4, 0.6, 0.9]))], [V.HOLDS])
        vs = evaluate_v2(rule, blocks_sweep([0.2, 0.4, 0.6, 0.62]))
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("gains >= 10.0%", vs[0].detail)

    def test_scales(self):
        rule = {"kind": "scales", "candidate": {"variant": "tree"}, "x": "groups", "metric": "rate:dram@reduce",
                "min_efficiency": 0.7}
        # 64 -> 512 groups is 8x; 0.05 -> 0.32 is 6.4x: efficiency 0.8
        vs = evaluate_v2(rule, blocks_sweep([0.05, 0.1, 0.2, 0.32], x="groups"))
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("efficiency 0.8", vs[0].detail)
        vs = evaluate_v2(rule, blocks_sweep([0.05, 0.1, 0.2, 0.2], x="groups"))  # 4x over 8x
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("efficiency 0.5", vs[0].detail)

    def test_drops_with_and_without_a_baseline(self):
        rule = {"kind": "drops", "candidate": {"variant": "tree"}, "x": "group_size", "metric": "rate:dram@reduce",
                "min_drop": 0.2}
        self.assertEqual([v.verdict for v in evaluate_v2(rule, blocks_sweep([0.9, 0.8, 0.5]))], [V.HOLDS])
        self.assertEqual([v.verdict for v in evaluate_v2(rule, blocks_sweep([0.9, 0.5, 0.8]))], [V.DOES_NOT_HOLD])
        # candidate over baseline: 0.9/0.3 = 3x at 64, 0.6/0.5 = 1.2x at 256: the gain falls by 60%
        with_base = dict(rule, baseline={"variant": "nol1"})
        pts = blocks_sweep([0.9, 0.8, 0.6]) + blocks_sweep([0.3, 0.4, 0.5], variant="nol1")
        vs = evaluate_v2(with_base, pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("group_size=64 3, group_size=128 2, group_size=256 1.2", vs[0].detail)
        self.assertIn("over the baseline's", vs[0].detail)
        pts = blocks_sweep([0.9, 0.8, 0.6]) + blocks_sweep([0.3, 0.4, 0.2], variant="nol1")
        self.assertEqual([v.verdict for v in evaluate_v2(with_base, pts)], [V.DOES_NOT_HOLD])
        # no baseline points: nothing to judge
        self.assertEqual([v.verdict for v in evaluate_v2(with_base, blocks_sweep([0.9, 0.6]))], [V.NOT_RUN])

    def test_counter_metric(self):
        pts = blocks_sweep([0.5, 0.5, 0.5])
        for p, rate in zip(pts, (97.0, 60.0, 12.0)):
            p["counters"]["l1_hit_rate"] = rate
        self.assertEqual(V.stat(pts[2], "counter:l1_hit_rate"), 12.0)
        self.assertIsNone(V.stat(pts[0], "counter:l2_hit_rate"))
        self.assertEqual(V.metric_unit("counter:l1_hit_rate"), "%")
        rule = {"kind": "drops", "candidate": {"variant": "tree"}, "x": "group_size",
                "metric": "counter:l1_hit_rate", "min_drop": 0.5}
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [V.HOLDS])


def speedup_sweep(variant, fractions, x="groups", app="segsum", **kw):
    """Points of `variant` along x = 2, 4, 8, ...: phase "reduce" takes
    1 / fractions[i] time units, so a candidate's speedup over a baseline at a
    point is its fraction over the baseline's."""
    return [C.make_v2_point(variant, {x: str(2 << i)}, f, app=app, **kw) for i, f in enumerate(fractions)]


GROWS = {"kind": "speedup_grows", "candidate": {"variant": "software"}, "baseline": {"variant": "system"},
         "x": "groups", "metric": "reduce", "min_last": 1.0}


class SpeedupRulesTest(unittest.TestCase):
    def test_speedup_grows(self):
        pts = speedup_sweep("software", [0.2, 0.4, 0.8]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        vs = evaluate_v2(GROWS, pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("groups=2 0.5x, groups=4 1x, groups=8 2x", vs[0].detail)
        # grows but stays below 1x at the largest count
        pts = speedup_sweep("software", [0.1, 0.2, 0.3]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        vs = evaluate_v2(GROWS, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("not above 1x", vs[0].detail)
        # falls
        pts = speedup_sweep("software", [0.8, 0.4, 0.6]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        self.assertEqual([v.verdict for v in evaluate_v2(GROWS, pts)], [V.DOES_NOT_HOLD])
        # no baseline: not run
        self.assertEqual([v.verdict for v in evaluate_v2(GROWS, speedup_sweep("software", [0.2, 0.4]))],
                         [V.NOT_RUN])

    def test_speedup_over_the_best_of_several_baselines(self):
        rule = dict(GROWS, baseline={"variant": ["system", "wave"]})
        pts = (speedup_sweep("software", [0.2, 0.9]) + speedup_sweep("system", [0.4, 0.4])
               + speedup_sweep("wave", [0.1, 0.8]))
        vs = evaluate_v2(rule, pts)  # over the faster one: 0.2/0.4 = 0.5x, then 0.9/0.8 = 1.12x
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("groups=2 0.5x, groups=4 1.12x", vs[0].detail)

    def test_failed_point_breaks_speedup_grows(self):
        pts = speedup_sweep("software", [0.2, 0.8]) + speedup_sweep("system", [0.4, 0.4])
        pts[1] = C.make_v2_point("software", {"groups": "4"}, 0.8, validation="failed")
        self.assertEqual([v.verdict for v in evaluate_v2(GROWS, pts)], [V.DOES_NOT_HOLD])

    def test_mean_speedup(self):
        rule = {"kind": "mean_speedup", "candidate": {"variant": "software"}, "baseline": {"variant": "system"},
                "metric": "reduce", "max_mean": 1.0}
        pts = speedup_sweep("software", [0.2, 0.4, 0.5]) + speedup_sweep("system", [0.4, 0.4, 0.4])
        vs = evaluate_v2(rule, pts)  # 0.5, 1, 1.25: geometric mean 0.855
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("geometric mean speedup 0.855x over 3 pair(s)", vs[0].detail)
        rule = dict(rule, min_mean=1.0)
        rule.pop("max_mean")
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [V.DOES_NOT_HOLD])
        both = dict(rule, max_mean=1.0)
        self.assertTrue(evaluate_v2(both, pts)[0].verdict.startswith("not evaluated (bad mean_speedup"))

    def test_model_error(self):
        rule = {"kind": "model_error", "candidate": {"variant": "model"}, "predicted": "counter:speedup_predicted",
                "measured": "counter:speedup_measured", "x": "groups", "max_median_error": 0.3}
        pts = speedup_sweep("model", [0.5, 0.5, 0.5])
        for p, (pred, meas) in zip(pts, [(0.5, 0.6), (1.0, 1.1), (2.0, 1.5)]):
            p["counters"].update(speedup_predicted=pred, speedup_measured=meas)
        vs = evaluate_v2(rule, pts)  # errors 16.7%, 9.1%, 33.3%: median 16.7%
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("median relative error 16.7% over 3 point(s)", vs[0].detail)
        pts[2]["counters"].update(speedup_predicted=4.0)  # errors 16.7, 9.1, 167: median still 16.7
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [V.HOLDS])
        pts[1]["counters"].update(speedup_predicted=3.0)  # median 167%
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("needs < 30.0%", vs[0].detail)
        # small errors but opposite trends
        for p, (pred, meas) in zip(pts, [(1.0, 1.2), (1.0, 1.0), (0.9, 0.8)]):
            p["counters"].update(speedup_predicted=pred, speedup_measured=meas)
        pts[2]["counters"].update(speedup_predicted=1.3, speedup_measured=1.1)
        pts[0]["counters"].update(speedup_predicted=1.0, speedup_measured=1.2)
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("the trends differ", vs[0].detail)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, speedup_sweep("model", [0.5]))], [V.NOT_RUN])

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
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("dot: counter:isa_alu_fetch 3 speedup 0.5x", vs[0].detail)
        pts[3]["counters"]["isa_alu_fetch"] = 0.1  # mm now the most memory-bound but not the fastest
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [V.DOES_NOT_HOLD])
        for p in pts:
            p["counters"].pop("isa_alu_fetch", None)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [V.NOT_RUN])


class CeilingRatioTest(unittest.TestCase):
    RULE = {"kind": "ceiling_ratio", "candidate": {"variant": "tree"}, "ceiling": "dram_read", "of": "d2d_copy",
            "min_ratio": 0.93}

    def doc(self, dram_read):
        doc = C.make_document_v2([C.make_v2_point()], self.RULE)
        doc["ceilings"] = [{"backend": "cuda", "device_index": 0, "name": "d2d_copy", "value": 2000.0,
                            "unit": "GB/s", "method": "m"}]
        if dram_read is not None:
            doc["ceilings"].append({"backend": "cuda", "device_index": 0, "name": "dram_read",
                                    "value": dram_read, "unit": "GB/s", "method": "m"})
        return doc

    def test_ratio_of_the_documents_ceilings(self):
        vs = V.evaluate_documents([self.doc(1900.0)])
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("dram_read 1900.0 / d2d_copy 2000.0 = 95.0%", vs[0].detail)
        self.assertEqual([v.verdict for v in V.evaluate_documents([self.doc(1800.0)])], [V.DOES_NOT_HOLD])
        self.assertEqual([v.verdict for v in V.evaluate_documents([self.doc(None)])], [V.NOT_RUN])


class CombinatorsTest(unittest.TestCase):
    def test_all_of(self):
        holds = dict(SAT)
        broken = dict(SAT, max_gain=0.01)
        pts = blocks_sweep([0.2, 0.4, 0.6, 0.63])
        vs = evaluate_v2({"kind": "all_of", "rules": [holds, {"kind": "all_valid"}]}, pts)
        self.assertEqual([(v.verdict, v.rule) for v in vs], [(V.HOLDS, "all_of")])
        self.assertIn("[1 saturates] holds", vs[0].detail)
        self.assertIn("[2 all_valid] holds", vs[0].detail)
        vs = evaluate_v2({"kind": "all_of", "rules": [holds, broken]}, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        not_run = dict(SAT, candidate={"variant": "absent"})
        vs = evaluate_v2({"kind": "all_of", "rules": [holds, not_run]}, pts)
        self.assertEqual([v.verdict for v in vs], [V.NOT_RUN])
        vs = evaluate_v2({"kind": "all_of", "rules": []}, pts)
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad all_of rule"))

    def test_first_of_falls_back_when_the_first_is_not_run(self):
        pts = blocks_sweep([0.9, 0.8, 0.5])
        counters = {"kind": "drops", "candidate": {"variant": "tree"}, "x": "group_size",
                    "metric": "counter:l1_hit_rate", "min_drop": 0.2}
        proxy = dict(counters, metric="rate:dram@reduce")
        vs = evaluate_v2({"kind": "first_of", "rules": [counters, proxy]}, pts)
        self.assertEqual([v.verdict for v in vs], [V.HOLDS])
        self.assertIn("by rule 2 (drops) (rule 1 not run)", vs[0].detail)
        for p, rate in zip(pts, (90.0, 89.0, 88.0)):  # counters present: they decide
            p["counters"]["l1_hit_rate"] = rate
        vs = evaluate_v2({"kind": "first_of", "rules": [counters, proxy]}, pts)
        self.assertEqual([v.verdict for v in vs], [V.DOES_NOT_HOLD])
        self.assertIn("by rule 1 (drops)", vs[0].detail)
        vs = evaluate_v2({"kind": "first_of", "rules": [dict(counters, candidate={"variant": "x"})]}, pts)
        self.assertEqual([v.verdict for v in vs], [V.NOT_RUN])


class HelpersTest(unittest.TestCase):
    def test_short_device(self):
        self.assertEqual(V.short_device("NVIDIA H100 80GB HBM3"), "H100 80GB HBM3")
        self.assertEqual(V.short_device("cpu-haswell-AMD EPYC 7J13 64-Core Processor"), "PoCL EPYC 7J13")

    def test_merge_phase_orders(self):
        pts = [{"phase_order": ["map", "group", "reduce"]},
               {"phase_order": ["preprocess", "copy_in", "map", "sort", "reduce", "copy_out"]}]
        self.assertEqual(V.merge_phase_orders(pts),
                         ["preprocess", "copy_in", "map", "group", "sort", "reduce", "copy_out"])

    def test_matches(self):
        p = C.make_point("mars", "cuda", "1MiB", MiB, 1.0)
        self.assertTrue(V.matches(p, {"framework": "mars", "dataset.label": "1MiB"}))
        self.assertTrue(V.matches(p, {"backend": ["cuda", "opencl"]}))
        self.assertFalse(V.matches(p, {"framework": "cpu"}))


if __name__ == "__main__":
    unittest.main()
