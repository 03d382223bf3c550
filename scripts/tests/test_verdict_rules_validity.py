#!/usr/bin/env python3
"""verdict_rules.validity: the all_valid rule, skipped points included."""

import unittest

import _common as C
import verdict_rules as VR
from _common import MiB, axes
from _rules import by_backend, evaluate, evaluate_v2


class AllValidTest(unittest.TestCase):
    RULE = {"kind": "all_valid"}

    def test_holds(self):
        vs = evaluate(self.RULE, [C.make_point("mars", "cuda", "1MiB", MiB, 1.0),
                                  C.make_point("mars", "cuda", "4MiB", 4 * MiB, 2.0)])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertEqual(vs[0].backend, "cuda")
        self.assertEqual(vs[0].experiment, "test.exp")

    def test_does_not_hold_per_device(self):
        vs = by_backend(evaluate(self.RULE, [
            C.make_point("mars", "cuda", "1MiB", MiB, 1.0),
            C.make_point("mars", "opencl", "1MiB", MiB, 1.0, status="failed", validation="failed"),
            C.make_point("mars", "opencl", "4MiB", 4 * MiB, 1.0)]))
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertEqual(vs["opencl"].verdict, VR.DOES_NOT_HOLD)
        self.assertIn("mars/default/wordcount/opencl:0/gen/1MiB", vs["opencl"].detail)

    def test_error_point_breaks_it_and_all_errors_is_not_run(self):
        vs = by_backend(evaluate(self.RULE, [
            C.make_point("mars", "cuda", "1MiB", MiB, 1.0),
            C.make_point("mars", "cuda", "4MiB", 4 * MiB, 0, status="error", error="out of memory"),
            C.make_point("mars", "opencl", "1MiB", MiB, 0, status="error", error="no device")]))
        self.assertEqual(vs["cuda"].verdict, VR.DOES_NOT_HOLD)
        self.assertEqual(vs["opencl"].verdict, VR.NOT_RUN)
        self.assertIn("no device", vs["opencl"].detail)


class AllValidSkippedTest(unittest.TestCase):
    def test_all_valid_ignores_skipped(self):
        vs = evaluate_v2({"kind": "all_valid"}, [
            C.make_v2_point(axes=axes(64)), C.make_v2_point(axes=axes(1024), status="skipped", skip_reason="too big"),
            C.make_v2_point(backend="opencl", device_name="PoCL", axes=axes(64), status="skipped",
                            skip_reason="no subgroups on this device")])
        vs = by_backend(vs)
        self.assertEqual(vs["cuda"].verdict, VR.HOLDS)
        self.assertIn("1 skipped", vs["cuda"].detail)
        self.assertEqual(vs["opencl"].verdict, VR.NOT_RUN)
        self.assertIn("no subgroups on this device", vs["opencl"].detail)

    def test_all_valid_wrong_case_skipped_does_not_hide_a_failure(self):
        vs = evaluate_v2({"kind": "all_valid"}, [
            C.make_v2_point(axes=axes(64), validation="failed"),
            C.make_v2_point(axes=axes(1024), status="skipped")])
        self.assertEqual([v.verdict for v in vs], [VR.DOES_NOT_HOLD])


if __name__ == "__main__":
    unittest.main()
