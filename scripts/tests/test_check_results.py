#!/usr/bin/env python3
"""check_results.py: the example validates; broken documents do not."""

import copy
import os
import subprocess
import sys
import tempfile
import unittest

import _common as C

try:
    import jsonschema  # noqa: F401
    HAVE_JSONSCHEMA = True
except ImportError:
    HAVE_JSONSCHEMA = False

SCRIPT = os.path.join(C.SCRIPTS, "check_results.py")


def run(*files):
    return subprocess.run([sys.executable, SCRIPT, *files], capture_output=True, text=True, check=False)


@unittest.skipUnless(HAVE_JSONSCHEMA, "jsonschema is not installed")
class CheckResultsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_example_validates(self):
        r = run(C.EXAMPLE)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_crafted_document_validates(self):
        doc = C.make_document([C.make_point("cpu", "cpu", "1MiB", 1 << 20, 5.0),
                               C.make_point("mars", "cuda", "1MiB", 1 << 20, 1.0),
                               C.make_point("mars", "opencl", "1MiB", 1 << 20, 0, status="error")])
        r = run(C.write_json(self.path("ok.json"), doc))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_bad_status_fails(self):
        doc = C.load_example()
        doc["points"][0]["status"] = "great"
        r = run(C.write_json(self.path("bad.json"), doc))
        self.assertEqual(r.returncode, 1)
        self.assertIn("status", r.stdout)
        self.assertIn("great", r.stdout)
        self.assertIn("bad.json", r.stdout)

    def test_other_violations_fail(self):
        cases = {
            "backend": lambda d: d["points"][0].__setitem__("backend", "vulkan"),
            "negative": lambda d: d["points"][0]["repetitions"][0].__setitem__("total_ms", -1.0),
            "version": lambda d: d.__setitem__("schema_version", 3),
            "v1_points_declared_v2": lambda d: d.__setitem__("schema_version", 2),
            "v2_field_in_v1": lambda d: d["points"][0].__setitem__("skip_reason", "no"),
            "missing_env": lambda d: d.pop("environment"),
            "error_without_message": lambda d: d["points"][5].__setitem__("error", None),
            "ok_without_reps": lambda d: d["points"][0].__setitem__("repetitions", []),
            "failed_but_passed": lambda d: d["points"][0].__setitem__("status", "failed"),
            "duplicate_key": lambda d: d["points"][1].__setitem__("key", d["points"][0]["key"]),
            "n_mismatch": lambda d: d["points"][0]["summary"]["total_ms"].__setitem__("n", 9),
            "unknown_field": lambda d: d["points"][0].__setitem__("speed", 3),
        }
        for name, mutate in cases.items():
            with self.subTest(name):
                doc = copy.deepcopy(C.load_example())
                mutate(doc)
                r = run(C.write_json(self.path(name + ".json"), doc))
                self.assertEqual(r.returncode, 1, f"{name}: {r.stdout}{r.stderr}")
                self.assertTrue(r.stdout.strip(), name)

    def test_version_2_example_and_reference_validate(self):
        r = run(C.EXAMPLE_V2, C.REFERENCE, C.EXAMPLE)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout.count(": ok"), 3)

    def test_crafted_version_2_document_validates(self):
        doc = C.make_document_v2([
            C.make_v2_point(axes={"group_size": "64", "segment": "1024"}, fraction=0.5),
            C.make_v2_point(axes={"group_size": 128, "segment": 1024}, fraction=None),  # numbers vs "128" params
            C.make_v2_point(axes={"group_size": "256", "segment": "1024"}, status="skipped", skip_reason="tile"),
            C.make_v2_point(axes={"group_size": "512", "segment": "1024"}, status="error"),
            C.make_v2_point(axes={"group_size": "64", "segment": "64"}, validation="failed",
                            extra_devices=[("cuda", 1, "NVIDIA H100 80GB HBM3"), ("cpu", 0, "EPYC")])])
        doc["points"][1]["params"]["group_size"] = "128"
        r = run(C.write_json(self.path("v2.json"), doc))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def v2_fails(self, name, mutate, *expected):
        doc = C.load_example_v2()
        mutate(doc)
        r = run(C.write_json(self.path(name + ".json"), doc))
        self.assertEqual(r.returncode, 1, f"{name}: {r.stdout}{r.stderr}")
        for text in expected:
            self.assertIn(text, r.stdout, name)
        return r.stdout

    def test_fraction_must_equal_value_over_ceiling(self):
        def mutate(d):
            rate = d["points"][0]["rates"][1]
            self.assertEqual(rate["name"], "dram@reduce")
            rate["fraction"] = rate["value"] / rate["ceiling_value"] * 1.01
        out = self.v2_fails("fraction", mutate, "$.points[0].rates[1].fraction", "not value / ceiling_value",
                            "(point reduction/tree/segsum/cuda:0/uniform-f32/1GiB/group_size=64/segment=1024)")
        self.assertEqual(len(out.strip().splitlines()), 1, out)  # the schema itself is satisfied

    def test_fraction_within_1e_6_is_accepted(self):
        doc = C.load_example_v2()
        rate = doc["points"][0]["rates"][1]
        rate["fraction"] = rate["value"] / rate["ceiling_value"] * (1 + 5e-7)
        r = run(C.write_json(self.path("close.json"), doc))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_skipped_point_with_repetitions_fails(self):
        def mutate(d):
            skipped = [p for p in d["points"] if p["status"] == "skipped"]
            self.assertEqual(len(skipped), 1)
            skipped[0]["repetitions"] = [{"total_ms": 1.0, "validation": "not_run"}]
        self.v2_fails("skipped_reps", mutate, "skipped point has 1 repetition(s)", "group_size=1024/segment=1024")

    def test_other_version_2_violations_fail(self):
        def skipped(d):
            return [p for p in d["points"] if p["status"] == "skipped"][0]
        cases = {
            "skip_without_reason": (lambda d: skipped(d).pop("skip_reason"), "skip_reason"),
            "skip_with_summary": (lambda d: skipped(d).__setitem__("summary", d["points"][0]["summary"]), "summary"),
            "over_not_a_phase": (lambda d: d["points"][0]["rates"][1].__setitem__("over", "sort"),
                                 "neither total_ms nor a phase"),
            "axis_not_in_params": (lambda d: d["points"][0]["params"].pop("segment"), "not in params"),
            "axis_differs": (lambda d: d["points"][0]["params"].__setitem__("segment", "2048"),
                             "axis segment=1024 but params has segment=2048"),
            "counter_not_number": (lambda d: d["points"][0]["repetitions"][0]["counters"].__setitem__("blocks", "x"),
                                   "counters"),
            "counter_bool": (lambda d: d["points"][0]["repetitions"][0]["counters"].__setitem__("blocks", True),
                             "not a number"),
            "first_device_not_primary": (lambda d: d["points"][0]["devices"][0].__setitem__("index", 3),
                                         "is not the point's cuda:0"),
            "validation_skipped_on_ok": (lambda d: d["points"][0]["validation"].__setitem__("status", "skipped"),
                                         "validation"),
            "bytes_rate_in_g_per_s": (lambda d: d["points"][0]["rates"][1].__setitem__("unit", "G/s"), "GB/s"),
            "bad_stopped": (lambda d: d["points"][0]["measurement"].__setitem__("stopped", "bored"), "bored"),
            "bad_level": (lambda d: d["points"][0]["work"]["bytes"][0].__setitem__("level", "l3"), "l3"),
            "flat_v1_work": (lambda d: d["points"][0]["work"].__setitem__("records", 5), "records"),
            "bad_validation_kind": (lambda d: d["experiment"]["validation"].__setitem__("kind", "fuzzy"), "fuzzy"),
            "fraction_without_ceiling": (lambda d: d["points"][0]["rates"][1].__setitem__("ceiling_value", None),
                                         "without a ceiling_value"),
            "unknown_point_field": (lambda d: d["points"][0].__setitem__("speed", 3), "speed"),
        }
        for name, (mutate, text) in cases.items():
            with self.subTest(name):
                self.v2_fails(name, mutate, text)

    def test_axis_of_the_dataset_generator_is_checked_in_dataset_params(self):
        def generator_axis(d, value):
            point = d["points"][0]
            point["axes"]["key_bytes"] = "16"
            point["dataset"]["params"] = {"key_bytes": value, "value_bytes": "4"}
        doc = C.load_example_v2()
        generator_axis(doc, "16")
        r = run(C.write_json(self.path("generator_axis.json"), doc))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.v2_fails("generator_axis_differs", lambda d: generator_axis(d, "64"),
                      "axis key_bytes=16 but dataset.params has key_bytes=64")
        self.v2_fails("generator_axis_missing", lambda d: d["points"][0]["axes"].__setitem__("key_bytes", "16"),
                      "axis 'key_bytes' is not in params or dataset.params")

    def test_unreadable_and_non_json_exit_2(self):
        with open(self.path("junk.json"), "w") as f:
            f.write("{ not json")
        self.assertEqual(run(self.path("junk.json")).returncode, 2)
        self.assertEqual(run(self.path("missing.json"), C.EXAMPLE).returncode, 2)


if __name__ == "__main__":
    unittest.main()
