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


if __name__ == "__main__":
    unittest.main()
