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
            "version": lambda d: d.__setitem__("schema_version", 2),
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

    def test_unreadable_and_non_json_exit_2(self):
        with open(self.path("junk.json"), "w") as f:
            f.write("{ not json")
        self.assertEqual(run(self.path("junk.json")).returncode, 2)
        self.assertEqual(run(self.path("missing.json"), C.EXAMPLE).returncode, 2)


if __name__ == "__main__":
    unittest.main()
