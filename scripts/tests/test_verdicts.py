#!/usr/bin/env python3
"""verdicts.py: rule registry and the all_valid / faster rules on crafted points."""

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
