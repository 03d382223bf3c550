#!/usr/bin/env python3
"""verdict_rules' registry: unknown and missing rules, a new rule in one
function, bad specs, whole documents, and every rule kind that
paper/experiments/*.json names resolves."""

import glob
import json
import os
import unittest

import _common as C
import results_doc as rd
import verdict_rules as VR
from _common import MiB
from _rules import by_backend, evaluate


FASTER = {"kind": "faster", "candidate": {"framework": "mars", "variant": "default"},
          "baseline": {"framework": "cpu"}, "metric": "total_ms", "at": "largest", "min_speedup": 1.0}


class RegistryTest(unittest.TestCase):
    def test_unknown_kind(self):
        vs = evaluate({"kind": "monotonic_decrease"}, [C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
        self.assertEqual([v.verdict for v in vs], ["not evaluated (unknown rule kind monotonic_decrease)"])

    def test_no_rule(self):
        doc = C.make_document([C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
        doc["experiment"].pop("verdict", None)
        vs = VR.evaluate_documents([doc])
        self.assertTrue(vs[0].verdict.startswith("not evaluated"))

    def test_new_rule_is_one_function(self):
        @VR.rule("always")
        def always(spec, points):
            return [VR.Verdict("", k[0], k[1], k[2], VR.HOLDS, "by decree") for k in rd.group_by_device(points)]
        try:
            vs = evaluate({"kind": "always"}, [C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
            self.assertEqual([(v.verdict, v.rule) for v in vs], [(VR.HOLDS, "always")])
        finally:
            del VR.RULES["always"]

    def test_bad_rule_spec(self):
        vs = evaluate(dict(FASTER, at="smallest"), [C.make_point("mars", "cuda", "1MiB", MiB, 1.0)])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad faster rule"))

    def test_example_document(self):
        vs = by_backend(VR.evaluate_documents([C.load_example()]))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertEqual(vs["opencl"].verdict, VR.NOT_RUN)

    def test_reference_verdict_unchanged(self):
        vs = by_backend(VR.evaluate_documents(rd.load_documents([C.REFERENCE])))
        self.assertEqual(vs["cuda"].verdict, VR.DOES_NOT_HOLD)
        self.assertIn("0.535x", vs["cuda"].detail)  # 1625.0 ms / 3035.0 ms at 1GiB

    def test_example_v2_verdict(self):
        vs = VR.evaluate_documents([C.load_example_v2()])
        self.assertEqual([(v.backend, v.verdict, v.rule) for v in vs], [("cuda", VR.HOLDS, "fraction_of_ceiling")])
        # best over group_size: 74.1% at segment 1024 (group 256), 85.9% at segment 1048576 (group 256)
        self.assertIn("74.1% of d2d_copy", vs[0].detail)
        self.assertIn("85.9% of d2d_copy", vs[0].detail)
        self.assertNotIn("group_size=64", vs[0].detail)


def rule_kinds(spec) -> list[str]:
    """The kinds of a verdict spec and of every rule nested in it."""
    kinds = [spec.get("kind")]
    for sub in spec.get("rules") or []:
        kinds += rule_kinds(sub)
    return kinds


class PaperSpecsTest(unittest.TestCase):
    def specs(self):
        paths = sorted(glob.glob(os.path.join(C.ROOT, "paper", "experiments", "*.json")))
        self.assertTrue(paths)
        for path in paths:
            with open(path, encoding="utf-8") as f:
                yield os.path.basename(path), json.load(f)

    def test_every_rule_kind_resolves(self):
        for name, spec in self.specs():
            with self.subTest(spec=name):
                self.assertIsInstance(spec.get("verdict"), dict)
                for kind in rule_kinds(spec["verdict"]):
                    self.assertIn(kind, VR.RULES)

    def test_every_rule_is_well_formed(self):
        # without points a rule is "not run", never "not evaluated" (bad or unknown rule)
        for name, spec in self.specs():
            with self.subTest(spec=name):
                vs = VR.evaluate(spec["id"], spec["verdict"], [])
                self.assertTrue(vs)
                self.assertEqual({v.verdict for v in vs}, {VR.NOT_RUN}, vs[0].detail)


if __name__ == "__main__":
    unittest.main()
