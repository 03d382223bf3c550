#!/usr/bin/env python3
"""The gpu preset fits the main command's 30-minute budget on one H100: the
checked-in reference times of every experiment, plus set-up and build, sum to
at most 30 minutes, and every experiment has one (suite_budget.py)."""

import json
import os
import shutil
import tempfile
import unittest

import _common as C
import suite_budget


class SuiteBudgetTest(unittest.TestCase):
    def spec_and_reference_dirs(self):
        """Empty folders for specs and reference documents, removed after the test."""
        tmp = tempfile.mkdtemp(prefix="budget-test-")
        self.addCleanup(shutil.rmtree, tmp)
        specs, ref = os.path.join(tmp, "specs"), os.path.join(tmp, "ref")
        os.makedirs(specs)
        os.makedirs(ref)
        return specs, ref

    def test_the_gpu_suite_fits_the_budget(self):
        specs = suite_budget.load_specs()
        times = suite_budget.experiment_times("gpu", specs)
        missing = sorted(i for i, (s, _, _) in times.items() if s is None)
        self.assertEqual(missing, [], "experiments without a gpu reference time of what they "
                         "now run (check in a results document of a run at the gpu preset, or "
                         "give the spec a gpu_estimate_s until then)")
        total = sum(s for s, _, _ in times.values()) + suite_budget.BUILD_S
        self.assertLessEqual(total, suite_budget.BUDGET_MIN * 60,
                             f"the gpu suite takes {total / 60:.1f} min by its reference times and estimates")
        self.assertEqual(suite_budget.over_without_note(times, specs), [],
                         "past about 30 s per backend: say why in the spec's gpu_time_note")

    def test_an_experiment_past_the_budget_fails_it(self):
        specs, ref = self.spec_and_reference_dirs()
        for i in ("x.fast", "x.slow", "x.new"):
            C.write_json(os.path.join(specs, i + ".json"), {"id": i})
        def doc(i, preset, wall):
            points = [{"backend": b, "status": "ok"} for b in ("cuda", "opencl", "cpu")]
            return {"experiment": {"id": i, "preset": preset}, "wall_s": wall, "points": points}
        C.write_json(os.path.join(ref, "x.fast.gpu.json"), doc("x.fast", "gpu", 10.0))
        C.write_json(os.path.join(ref, "x.slow.gpu.a.json"), doc("x.slow", "gpu", 1000.0))
        C.write_json(os.path.join(ref, "x.slow.gpu.b.json"), doc("x.slow", "gpu", 2000.0))
        C.write_json(os.path.join(ref, "x.slow.full.json"), doc("x.slow", "full", 9000.0))
        # A run on a machine with several GPUs (points on 2 devices) is not the one-GPU suite's.
        # A GPU with the host is one GPU (co-processing).
        multi = doc("x.fast", "gpu", 5000.0)
        multi["environment"] = {"devices": [{"backend": "cuda", "index": i, "type": "gpu"}
                                            for i in (0, 1)] + [{"backend": "cpu", "index": 0, "type": "cpu"}]}
        multi["points"][0]["devices"] = [{"backend": "cuda", "index": 0}, {"backend": "cpu", "index": 0}]
        C.write_json(os.path.join(ref, "x.fast.gpu.cpu-and-gpu.json"), multi)
        self.assertEqual(suite_budget.experiment_times("gpu", suite_budget.load_specs(specs), ref)["x.fast"][0], 5000.0)
        multi["points"][0]["devices"] = [{"backend": "cuda", "index": 0}, {"backend": "cuda", "index": 1}]
        C.write_json(os.path.join(ref, "x.fast.gpu.cpu-and-gpu.json"), multi)
        times = suite_budget.experiment_times("gpu", suite_budget.load_specs(specs), ref)
        self.assertEqual(times["x.fast"][:1] + times["x.fast"][2:], (10.0, 2))  # cuda + opencl
        self.assertEqual(times["x.slow"][0], 2000.0)  # the slowest gpu document, not full's
        self.assertIsNone(times["x.new"][0])  # no reference: unknown cost
        args = ["--specs", specs, "--reference", ref]
        self.assertEqual(suite_budget.main(args), 1)  # 10 + 2000 s + the build, and one unknown
        os.remove(os.path.join(specs, "x.new.json"))
        self.assertEqual(suite_budget.main(args), 1)  # past 30 minutes
        # Within 40 minutes, but x.slow's 1000 s per backend need a reason.
        self.assertEqual(suite_budget.over_without_note(times, suite_budget.load_specs(specs)),
                         ["x.slow"])
        self.assertEqual(suite_budget.main(args + ["--budget-min", "40"]), 1)
        C.write_json(os.path.join(specs, "x.slow.json"), {"id": "x.slow", "gpu_time_note": "why"})
        self.assertEqual(suite_budget.main(args + ["--budget-min", "40"]), 0)

    def test_a_changed_preset_counts_its_estimate_until_measured(self):
        specs, ref = self.spec_and_reference_dirs()
        spec = {"id": "x.a", "runs": [{"framework": "f", "variants": ["v"], "apps": ["a"]}],
                "sizes": {"gpu": ["1MiB"]}, "axes": {"n": {"gpu": [1, 2]}},
                "gpu_memory_budget": {"gpu": "1MiB"}}
        C.write_json(os.path.join(specs, "x.a.json"), spec)
        points = [{"framework": "f", "variant": "v", "app": "a", "backend": "cuda", "status": "ok",
                   "dataset": {"label": "1MiB"}}]
        C.write_json(os.path.join(ref, "x.a.gpu.json"), {
            "experiment": {"id": "x.a", "preset": "gpu", "axes": {"n": ["1", "2"]},
                           "gpu_memory_budget_bytes": 1 << 20},
            "wall_s": 30.0, "points": points})
        def time():
            return suite_budget.experiment_times("gpu", suite_budget.load_specs(specs), ref)["x.a"]
        self.assertEqual(time()[0], 30.0)  # measured as specified
        for change, why in ((("apps", ["a", "b"]), "runs added f/v/b"),
                            (("sizes", {"gpu": ["2MiB"]}), "sizes of a"),
                            (("axes", {"n": {"gpu": [1, 4]}}), "axes n"),
                            (("gpu_memory_budget", {"gpu": "2MiB"}), "GPU memory budget")):
            changed = json.loads(json.dumps(spec))
            if change[0] == "apps":
                changed["runs"][0]["apps"] = change[1]
            else:
                changed[change[0]] = change[1]
            C.write_json(os.path.join(specs, "x.a.json"), changed)
            self.assertIsNone(time()[0], why)  # no estimate: unknown
            self.assertIn(why, time()[1])
            changed["gpu_estimate_s"] = 50
            C.write_json(os.path.join(specs, "x.a.json"), changed)
            self.assertEqual(time()[0], 50.0)
            self.assertTrue(time()[1].startswith("estimate"))

    def test_a_trimmed_preset_costs_what_its_kept_points_measured(self):
        specs, ref = self.spec_and_reference_dirs()
        spec = {"id": "x.t", "runs": [{"framework": "f", "variants": ["v", "w"], "apps": ["a"]}],
                "sizes": {"gpu": ["1MiB", "2MiB"]}, "axes": {"n": {"gpu": [1, 2]}}}
        C.write_json(os.path.join(specs, "x.t.json"), spec)

        def point(variant, label, n, seconds, reused=False):
            p = {"framework": "f", "variant": variant, "app": "a", "backend": "cuda", "status": "ok",
                 "dataset": {"label": label}, "axes": {"n": n}, "wall_s": {"total": seconds}}
            if reused:
                p["reused_from"] = "x.other"
            return p
        points = [point("v", "1MiB", 1, 1.0), point("v", "1MiB", 2, 2.0), point("v", "2MiB", 1, 4.0),
                  point("v", "2MiB", 2, 8.0), point("w", "1MiB", 1, 16.0, reused=True),
                  point("w", "1MiB", 2, 0.5), point("w", "2MiB", 1, 0.25), point("w", "2MiB", 2, 0.25)]
        doc = {"experiment": {"id": "x.t", "preset": "gpu", "axes": {"n": ["1", "2"]}},
               "wall_s": 20.0, "points": points}
        C.write_json(os.path.join(ref, "x.t.gpu.json"), doc)

        def time(**changes):
            changed = dict(json.loads(json.dumps(spec)), **changes)
            C.write_json(os.path.join(specs, "x.t.json"), changed)
            return suite_budget.experiment_times("gpu", suite_budget.load_specs(specs), ref)["x.t"]
        self.assertEqual(time()[0], 20.0)
        # Without the 2MiB size: 4 + 8 + 0.25 + 0.25 s of measured points go.
        self.assertAlmostEqual(time(sizes={"gpu": ["1MiB"]})[0], 20.0 - 12.5)
        self.assertIn("trimmed: 4 of 8 points dropped", time(sizes={"gpu": ["1MiB"]})[1])
        # Without variant w: its reused point cost this document nothing.
        self.assertAlmostEqual(time(runs=[{"framework": "f", "variants": ["v"], "apps": ["a"]}])[0], 19.0)
        # Without n=2 (an axis value): 2 + 8 + 0.5 + 0.25 s.
        self.assertAlmostEqual(time(axes={"n": {"gpu": [1]}})[0], 20.0 - 10.75)
        # Points whose times overlapped (16 s measured in a 10 s run): the dropped share scales.
        doc["wall_s"] = 10.0
        C.write_json(os.path.join(ref, "x.t.gpu.json"), doc)
        self.assertAlmostEqual(time(sizes={"gpu": ["1MiB"]})[0], 10.0 - 12.5 * 10.0 / 16.0)
        # Anything new is not a trim: the estimate (here none) counts.
        self.assertIsNone(time(sizes={"gpu": ["1MiB", "4MiB"]})[0])
        self.assertIsNone(time(axes={"n": {"gpu": [1, 3]}})[0])

    def test_a_reused_point_its_producer_no_longer_runs_costs_the_reuser(self):
        specs, ref = self.spec_and_reference_dirs()
        run = [{"framework": "f", "variants": ["v"], "apps": ["a"]}]
        for i in ("x.p", "x.r"):
            C.write_json(os.path.join(specs, i + ".json"),
                         {"id": i, "runs": run, "sizes": {"gpu": ["1MiB", "2MiB"]}})

        def point(label, seconds, reused=False):
            p = {"framework": "f", "variant": "v", "app": "a", "backend": "cuda", "status": "ok",
                 "dataset": {"label": label}, "wall_s": {"total": seconds}}
            if reused:
                p["reused_from"] = "x.p"
            return p
        C.write_json(os.path.join(ref, "x.p.gpu.json"), {
            "experiment": {"id": "x.p", "preset": "gpu"}, "wall_s": 7.0,
            "points": [point("1MiB", 3.0), point("2MiB", 4.0)]})
        C.write_json(os.path.join(ref, "x.r.gpu.json"), {
            "experiment": {"id": "x.r", "preset": "gpu"}, "wall_s": 0.5,
            "points": [point("1MiB", 3.0, reused=True), point("2MiB", 4.0, reused=True)]})

        def times():
            return suite_budget.experiment_times("gpu", suite_budget.load_specs(specs), ref)
        self.assertEqual((times()["x.p"][0], times()["x.r"][0]), (7.0, 0.5))
        # The producer keeps only 2MiB: the reuser measures its 1MiB point itself.
        C.write_json(os.path.join(specs, "x.p.json"), {"id": "x.p", "runs": run, "sizes": {"gpu": ["2MiB"]}})
        self.assertEqual((times()["x.p"][0], times()["x.r"][0]), (4.0, 3.5))
        self.assertIn("3.0 s of points no longer measured", times()["x.r"][1])
        # Unless the reuser drops it too.
        C.write_json(os.path.join(specs, "x.r.json"), {"id": "x.r", "runs": run, "sizes": {"gpu": ["2MiB"]}})
        self.assertEqual(times()["x.r"][0], 0.5)


if __name__ == "__main__":
    unittest.main()
