#!/usr/bin/env python3
"""verdict_rules.ceilings: fraction_of_ceiling, rate_at_least and ceiling_ratio."""

import unittest

import _common as C
import verdict_rules as VR
from _common import MiB, axes
from _rules import by_backend, evaluate, evaluate_v2


FRACTION = {"kind": "fraction_of_ceiling", "candidate": {"framework": "reduction"}, "rate": "dram@reduce",
            "at": "largest", "min_fraction": 0.8}


class FractionOfCeilingTest(unittest.TestCase):
    def test_holds(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=0.85),
                                    C.make_v2_point(axes=axes(256), fraction=0.92)])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("85.0% of d2d_copy (2000.0 GB/s)", vs[0].detail)
        self.assertLess(vs[0].detail.index("group_size=64"), vs[0].detail.index("group_size=256"))
        self.assertIn("92.0% of d2d_copy", vs[0].detail)

    def test_does_not_hold_when_one_fraction_is_low(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=0.55),
                                    C.make_v2_point(axes=axes(256), fraction=0.92)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("needs >= 80.0%", vs[0].detail)
        self.assertIn("group_size=64 segment=1024: dram@reduce 1100.0 GB/s = 55.0%", vs[0].detail)
        self.assertNotIn("92.0%", vs[0].detail)  # only the low ones are listed

    def test_exactly_min_fraction_holds(self):
        vs = evaluate_v2(dict(FRACTION, min_fraction=0.75), [C.make_v2_point(fraction=0.75)])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])

    def test_not_run_without_rate_or_ceiling(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=None),
                                    C.make_v2_point(axes=axes(256), ceiling=None)])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        self.assertIn("no rate 'dram@reduce'", vs[0].detail)
        self.assertIn("has no measured ceiling", vs[0].detail)
        # version 1 points have no rates at all
        vs = evaluate(FRACTION, [C.make_point("reduction", "cuda", "1MiB", MiB, 1.0)])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])

    def test_failed_validation_does_not_hold(self):
        vs = evaluate_v2(FRACTION, [C.make_v2_point(axes=axes(64), fraction=0.95, validation="failed"),
                                    C.make_v2_point(axes=axes(256), fraction=0.95)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("invalid result", vs[0].detail)

    def test_at_largest_vs_all(self):
        pts = [C.make_v2_point(axes=axes(256), label="4MiB", size=4 * MiB, fraction=0.3),
               C.make_v2_point(axes=axes(256), fraction=0.9)]
        self.assertEqual([v.verdict for v in evaluate_v2(FRACTION, pts)], [VR.HOLDS])
        vs = evaluate_v2(dict(FRACTION, at="all"), pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("4MiB", vs[0].detail)

    def test_skipped_and_error_points(self):
        pts = [C.make_v2_point(axes=axes(64), fraction=0.9),
               C.make_v2_point(axes=axes(1024), status="skipped", skip_reason="tile"),
               C.make_v2_point(axes=axes(128), status="error", error="out of memory")]
        vs = evaluate_v2(FRACTION, pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("out of memory", vs[0].detail)
        only_skipped = evaluate_v2(FRACTION, [pts[1]])
        self.assertEqual([v.verdict for v in only_skipped], [VR.NOT_RUN])

    def test_per_device(self):
        vs = by_backend(evaluate_v2(FRACTION, [
            C.make_v2_point(fraction=0.9),
            C.make_v2_point(backend="opencl", device_name="PoCL", fraction=0.4)]))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertEqual(vs["opencl"].verdict, VR.DOES_NOT_HOLD)

    def test_best_of(self):
        pts = [C.make_v2_point(axes=axes(64, 1024), fraction=0.5), C.make_v2_point(axes=axes(256, 1024), fraction=0.85),
               C.make_v2_point(axes=axes(64, 65536), fraction=0.6), C.make_v2_point(axes=axes(256, 65536), fraction=0.7)]
        rule = dict(FRACTION, best_of="group_size")
        vs = evaluate_v2(rule, pts)
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])  # best at segment 65536 is 70%
        self.assertIn("segment=65536: dram@reduce 1400.0 GB/s = 70.0%", vs[0].detail)
        self.assertNotIn("50.0%", vs[0].detail)
        pts[3] = C.make_v2_point(axes=axes(256, 65536), fraction=0.81)
        self.assertEqual([v.verdict for v in evaluate_v2(rule, pts)], [VR.HOLDS])
        self.assertEqual([v.verdict for v in evaluate_v2(FRACTION, pts)], [VR.DOES_NOT_HOLD])  # without best_of

    def test_bad_spec(self):
        vs = evaluate_v2({"kind": "fraction_of_ceiling", "candidate": {}}, [C.make_v2_point()])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad fraction_of_ceiling rule"))


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
        vs = VR.evaluate_documents([self.doc(1900.0)])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("dram_read 1900.0 / d2d_copy 2000.0 = 95.0%", vs[0].detail)
        self.assertEqual([v.verdict for v in VR.evaluate_documents([self.doc(1800.0)])], [VR.DOES_NOT_HOLD])
        self.assertEqual([v.verdict for v in VR.evaluate_documents([self.doc(None)])], [VR.NOT_RUN])


AT_LEAST = {"kind": "rate_at_least", "candidate": {"framework": "reduction"}, "rate": "dram@reduce",
            "at": "largest", "min_value": 1500}


class RateAtLeastTest(unittest.TestCase):
    # make_v2_point's rate is `fraction` x 2000 GB/s.
    def test_holds_and_does_not_hold_on_the_value(self):
        vs = evaluate_v2(AT_LEAST, [C.make_v2_point(axes=axes(64), fraction=0.85),
                                    C.make_v2_point(axes=axes(256), fraction=0.9)])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("every value >= 1500", vs[0].detail)
        self.assertIn("dram@reduce 1700.0 GB/s", vs[0].detail)
        vs = evaluate_v2(AT_LEAST, [C.make_v2_point(axes=axes(64), fraction=0.55),
                                    C.make_v2_point(axes=axes(256), fraction=0.9)])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])
        self.assertIn("needs >= 1500", vs[0].detail)
        self.assertIn("1100.0 GB/s", vs[0].detail)
        self.assertNotIn("1800.0", vs[0].detail)

    def test_best_of_an_axis(self):
        pts = [C.make_v2_point(axes=axes(64), fraction=0.55), C.make_v2_point(axes=axes(256), fraction=0.9)]
        vs = evaluate_v2(dict(AT_LEAST, best_of="group_size"), pts)
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("(best over group_size)", vs[0].detail)

    def test_not_run_without_the_rate_and_bad_rule(self):
        vs = evaluate_v2(AT_LEAST, [C.make_v2_point(fraction=None)])
        self.assertEqual([v.verdict for v in vs], [VR.NOT_RUN])
        self.assertIn("no rate 'dram@reduce'", vs[0].detail)
        vs = evaluate_v2({"kind": "rate_at_least", "rate": "dram@reduce"}, [C.make_v2_point()])
        self.assertTrue(vs[0].verdict.startswith("not evaluated (bad rate_at_least rule"))

    def test_failed_validation_does_not_hold(self):
        vs = evaluate_v2(AT_LEAST, [C.make_v2_point(fraction=0.95, validation="failed")])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])


if __name__ == "__main__":
    unittest.main()
