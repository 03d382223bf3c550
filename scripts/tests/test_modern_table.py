#!/usr/bin/env python3
"""modern_table: the side-by-side rows of a modern.<app> document."""

import unittest

import _common  # noqa: F401  (puts scripts/ on the path)
import modern_table as T


def point(variant: str, backend: str, size: int, total: float, phases: dict) -> dict:
    framework, name = variant.split("/")
    return {"status": "ok", "framework": framework, "variant": name, "backend": backend,
            "app": "wordcount", "dataset": {"size_bytes": size, "label": f"{size}B"},
            "summary": {"total_ms": {"median": total},
                        "phases_ms": {k: {"median": v} for k, v in phases.items()}},
            "validation": {"status": "passed"}}


class ModernTableTest(unittest.TestCase):
    def test_largest_size_ordered_by_variant_then_backend_with_link_fraction(self):
        big, small = 10**9, 10**6
        doc = {
            "ceilings": [{"backend": "cuda", "name": "h2d_pinned", "value": 50.0},
                         {"backend": "opencl", "name": "h2d_pinned", "value": 40.0}],
            "points": [
                point("cpu/default", "cpu", big, 100.0, {"map": 90.0}),
                point("hashagg/resident", "opencl", big, 50.0, {"copy_in": 30.0, "map": 15.0,
                                                                "group": 5.0}),
                point("hashagg/resident", "cuda", big, 40.0, {"preprocess": 3.0, "copy_in": 20.0,
                                                              "map": 10.0, "copy_out": 2.0}),
                point("hashagg/pipelined", "cuda", big, 25.0, {"pipeline": 25.0}),
                point("hashagg/resident", "cuda", small, 1.0, {"map": 1.0}),  # not the largest
                dict(point("thrust/default", "cuda", big, 1.0, {}), status="error"),
            ],
        }
        rows = T.rows(doc)
        self.assertEqual([r[2] for r in rows], ["hashagg/pipelined (cuda)", "hashagg/resident (cuda)",
                                                "hashagg/resident (opencl)", "cpu/default (cpu)"])
        pipelined, cuda, opencl, cpu = rows
        # 1e9 bytes in 40 ms: 25 GB/s, half of cuda's 50; 20 GB/s of OpenCL's 40.
        self.assertEqual(cuda[4], "25.0 = 50%")
        self.assertEqual(opencl[4], "20.0 = 50%")
        self.assertEqual(pipelined[4], "40.0 = 80%")
        self.assertEqual(cpu[4], "10.0")  # no link for the host
        # Device work: the phases after the copy in (map, group, copy_out, ...);
        # none for the pipelined variant (its copies overlap map) or the host.
        self.assertEqual(cuda[5], "12.00")
        self.assertEqual(opencl[5], "20.00")
        self.assertEqual(pipelined[5], "")
        self.assertEqual(cpu[5], "")

    def test_a_document_without_a_good_point_has_no_rows(self):
        self.assertEqual(T.rows({"points": [dict(point("cpu/default", "cpu", 1, 1.0, {}),
                                                 status="error")]}), [])


if __name__ == "__main__":
    unittest.main()
