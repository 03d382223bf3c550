#!/usr/bin/env python3
"""results_doc.py: loading versions 1 and 2, merging experiments, point
helpers, metrics and matchers."""

import os
import tempfile
import unittest

import _common as C
import results_doc as rd
from _common import MiB, axes


class LoadTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_reads_version_1_and_2(self):
        v1, ref, v2 = rd.load_documents([C.EXAMPLE, C.REFERENCE, C.EXAMPLE_V2])
        self.assertEqual((v1["schema_version"], ref["schema_version"], v2["schema_version"]), (1, 1, 2))
        exps = {e.id: e for e in rd.merge_experiments([v1, ref, v2])}
        self.assertEqual(set(exps), {"mars.wordcount-smoke", "core.reduction"})
        self.assertEqual(len(exps["mars.wordcount-smoke"].points), len(v1["points"]) + len(ref["points"]))
        self.assertEqual(exps["core.reduction"].documents, [2])

    def test_rejects_other_versions(self):
        for bad in (3, 0, "2", True, None):
            with self.subTest(version=bad):
                doc = C.load_example_v2()
                doc["schema_version"] = bad
                path = C.write_json(os.path.join(self.tmp.name, "bad.json"), doc)
                with self.assertRaises(rd.ResultsInputError) as ctx:
                    rd.load_document(path)
                self.assertIn("versions 1 and 2", str(ctx.exception))
                self.assertIn(repr(bad), str(ctx.exception))

    def test_merged_points_know_their_document_and_its_ceilings(self):
        first, second = C.make_document_v2([C.make_v2_point()]), C.make_document_v2([C.make_v2_point()])
        first["ceilings"] = []
        second["ceilings"] = [{"backend": "cuda", "device_index": 0, "name": "d2d_copy", "value": 2000.0,
                               "unit": "GB/s", "method": "m"},
                              {"backend": "opencl", "device_index": 0, "name": "d2d_copy", "value": 10.0,
                               "unit": "GB/s", "method": "m"}]
        exps = rd.merge_experiments([first, second])
        self.assertEqual([rd.document_index(p) for p in exps[0].points], [0, 1])
        self.assertEqual([rd.point_ceilings(p) for p in exps[0].points], [{}, {"d2d_copy": 2000.0}])
        self.assertEqual(exps[0].duplicates, [exps[0].points[0]["key"]])


class PointHelpersV2Test(unittest.TestCase):
    def test_rate_and_fraction_metrics(self):
        p = C.make_v2_point(fraction=0.75)
        self.assertAlmostEqual(rd.stat(p, "fraction:dram@reduce"), 0.75)
        self.assertAlmostEqual(rd.stat(p, "rate:dram@reduce"), 0.75 * C.D2D)
        # min/max fall back to the median-based value
        self.assertAlmostEqual(rd.stat(p, "rate:dram@reduce", "min"), 0.75 * C.D2D)
        self.assertAlmostEqual(rd.stat(p, "fraction:dram@reduce", "max"), 0.75)
        self.assertIsNone(rd.stat(p, "rate:h2d"))
        self.assertIsNone(rd.stat(C.make_point("mars", "cuda", "1MiB", MiB, 1.0), "fraction:dram"))
        self.assertTrue(rd.higher_is_better("rate:x") and rd.higher_is_better("fraction:x"))
        self.assertFalse(rd.higher_is_better("total_ms"))

    def test_fraction_without_field_is_value_over_ceiling(self):
        p = C.make_v2_point(fraction=0.5)
        p["rates"][0]["fraction"] = None
        self.assertAlmostEqual(rd.stat(p, "fraction:dram@reduce"), 0.5)
        p["rates"][0]["ceiling_value"] = None
        self.assertIsNone(rd.stat(p, "fraction:dram@reduce"))

    def test_skipped_axes_devices(self):
        p = C.make_v2_point(axes=axes(128, 65536), status="skipped", skip_reason="tile too large",
                            extra_devices=[("cuda", 1, "H100")])
        self.assertTrue(rd.is_skipped(p))
        self.assertEqual(rd.skip_reason(p), "tile too large")
        self.assertEqual(rd.axes_text(p), "group_size=128 segment=65536")
        self.assertEqual(rd.axes_text(p, skip=("group_size",)), "segment=65536")
        self.assertEqual(rd.x_value(p, "group_size"), 128.0)
        self.assertEqual(rd.point_devices(p), [("cuda", 0, "NVIDIA H100 80GB HBM3"), ("cuda", 1, "H100")])
        self.assertEqual(rd.point_devices(C.make_point("mars", "cuda", "1MiB", MiB, 1.0)),
                         [("cuda", 0, "NVIDIA H100 80GB HBM3")])

    def test_matcher_compares_axis_values_as_text(self):
        p = C.make_v2_point(axes=axes(256, 1048576))
        self.assertTrue(rd.matches(p, {"axes.segment": ["1048576", 65536]}))
        self.assertTrue(rd.matches(p, {"params": {"group_size": 256}}))
        self.assertFalse(rd.matches(p, {"axes.segment": 1024}))
        self.assertFalse(rd.matches(p, {"axes.missing": "1"}))


class MetricsTest(unittest.TestCase):
    def test_sum_of_phases(self):
        # map + reduce is the whole total; a missing phase counts 0
        p = C.make_point("mars", "cuda", "4MiB", 4 * MiB, 10.0)
        self.assertAlmostEqual(rd.stat(p, "map+reduce"), 10.0)
        self.assertAlmostEqual(rd.stat(p, "map+sort"), 6.0)
        self.assertIsNone(rd.stat(p, "sort+copy_out"))

    def test_counter_metric(self):
        p = C.make_v2_point()
        p["counters"]["l1_hit_rate"] = 12.0
        self.assertEqual(rd.stat(p, "counter:l1_hit_rate"), 12.0)
        self.assertIsNone(rd.stat(p, "counter:l2_hit_rate"))
        self.assertEqual(rd.metric_unit("counter:l1_hit_rate"), "%")

    def test_value_text_and_numbers(self):
        self.assertEqual([rd.value_text(v) for v in (128, 128.0, "128", True, 0.5)],
                         ["128", "128", "128", "true", "0.5"])
        self.assertEqual(rd.as_number(3), 3.0)
        self.assertIsNone(rd.as_number(True))
        self.assertIsNone(rd.as_number("3"))
        self.assertEqual([rd.fmt_num(x) for x in (None, 0, 1234.56, 0.123456, float("nan"))],
                         ["n/a", "0", "1234.6", "0.123", "n/a"])


class HelpersTest(unittest.TestCase):
    def test_short_device(self):
        self.assertEqual(rd.short_device("NVIDIA H100 80GB HBM3"), "H100 80GB HBM3")
        self.assertEqual(rd.short_device("cpu-haswell-AMD EPYC 7J13 64-Core Processor"), "PoCL EPYC 7J13")

    def test_merge_phase_orders(self):
        pts = [{"phase_order": ["map", "group", "reduce"]},
               {"phase_order": ["preprocess", "copy_in", "map", "sort", "reduce", "copy_out"]}]
        self.assertEqual(rd.merge_phase_orders(pts),
                         ["preprocess", "copy_in", "map", "group", "sort", "reduce", "copy_out"])

    def test_matches(self):
        p = C.make_point("mars", "cuda", "1MiB", MiB, 1.0)
        self.assertTrue(rd.matches(p, {"framework": "mars", "dataset.label": "1MiB"}))
        self.assertTrue(rd.matches(p, {"backend": ["cuda", "opencl"]}))
        self.assertFalse(rd.matches(p, {"framework": "cpu"}))


if __name__ == "__main__":
    unittest.main()
