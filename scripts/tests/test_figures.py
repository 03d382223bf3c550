#!/usr/bin/env python3
"""figures.py: paper/FIGURES.md, the figure catalogue, is generated from
paper/experiments/*.json and up to date with them; every spec has its claim,
what runs and its verdict rule in it."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import _common as C
import figures

SCRIPT = os.path.join(C.SCRIPTS, "figures.py")


class CatalogueTest(unittest.TestCase):
    def test_committed_catalogue_is_up_to_date(self):
        r = subprocess.run([sys.executable, SCRIPT, "--check"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr + "\n(run: python3 scripts/figures.py)")

    def test_every_spec_is_in_it(self):
        specs = figures.load_specs()
        text = figures.catalogue(specs)
        self.assertEqual(len(specs), len([n for n in os.listdir(figures.SPECS) if n.endswith(".json")]))
        for s in specs:
            self.assertIn(f"### `{s['id']}`", text)
            self.assertIn(s["claim"], text)
            self.assertIn(s["verdict_rule"], text)
            self.assertIn(json.dumps(s["verdict"]), text)

    def test_check_fails_when_a_spec_changes(self):
        tmp = tempfile.mkdtemp(prefix="figures-test-")
        spec = {"id": "x.one", "title": "T", "seed": "S", "claim": "C", "verdict_rule": "R",
                "verdict": {"kind": "all_valid"}, "dataset": "none",
                "runs": [{"framework": "f", "variants": ["v"], "apps": ["a"]}], "reps": {"ci": 1}}
        with open(os.path.join(tmp, "x.one.json"), "w") as f:
            json.dump(spec, f)
        out = os.path.join(tmp, "FIGURES.md")
        args = [sys.executable, SCRIPT, "--specs", tmp, "--out", out]
        self.assertEqual(subprocess.run(args, capture_output=True).returncode, 0)
        self.assertEqual(subprocess.run(args + ["--check"], capture_output=True).returncode, 0)
        spec["claim"] = "another claim"
        with open(os.path.join(tmp, "x.one.json"), "w") as f:
            json.dump(spec, f)
        r = subprocess.run(args + ["--check"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("out of date", r.stderr)


if __name__ == "__main__":
    unittest.main()
