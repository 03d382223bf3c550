#!/usr/bin/env python3
"""merge_documents: per-backend documents of one experiment become one."""

import copy
import json
import os
import tempfile
import unittest

import _common as C
import merge_documents as M
from results_doc import wall_seconds


def part(backend: str, wall: float) -> dict:
    doc = C.make_document_v2([C.make_v2_point(backend=backend, device_index=0 if backend == "cuda" else 1)],
                             {"kind": "faster"})
    doc["wall_s"] = wall
    doc["complete"] = True
    doc["environment"]["devices"] = [{"backend": backend, "index": 0, "name": backend}]
    doc["ceilings"] = [{"backend": backend, "name": "d2d_copy", "value": 1.0}]
    return doc


class MergeDocumentsTest(unittest.TestCase):
    def test_points_devices_ceilings_and_wall_time_add_up(self):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "in"), os.path.join(d, "out")
            os.makedirs(src)
            a, b = part("cuda", 10.0), part("opencl", 5.5)
            exp = a["experiment"]["id"]
            C.write_json(os.path.join(src, f"{exp}@cuda.json"), a)
            C.write_json(os.path.join(src, f"{exp}@opencl.json"), b)
            self.assertEqual(M.main([src, dst, "--suffix", ".gpu.h100"]), 0)
            with open(os.path.join(dst, f"{exp}.gpu.h100.json"), encoding="utf-8") as f:
                out = json.load(f)
            self.assertEqual(len(out["points"]), 2)
            self.assertEqual(wall_seconds(out), 15.5)
            self.assertEqual(len(out["environment"]["devices"]), 2)
            self.assertEqual(len(out["ceilings"]), 2)
            self.assertTrue(out["complete"])

    def test_a_point_in_two_documents_is_kept_once_and_another_preset_is_refused(self):
        a = part("cuda", 1.0)
        twice = M.merge([a, copy.deepcopy(a)])
        self.assertEqual(len(twice["points"]), 1)
        self.assertEqual(wall_seconds(twice), 2.0)  # both runs took their time
        b = part("opencl", 1.0)
        b["experiment"]["preset"] = "other"
        with self.assertRaises(ValueError):
            M.merge([a, b])


if __name__ == "__main__":
    unittest.main()
