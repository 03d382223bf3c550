#!/usr/bin/env python3
"""verdict_rules.selection: the rules' options "at" and "vary", axis agreement,
points at the largest dataset, invalid points and a point's name in a detail."""

import unittest

import _common as C
from _common import MiB, axes
from verdict_rules import selection as S


class SelectionTest(unittest.TestCase):
    def test_options(self):
        self.assertEqual(S.at_option({}), "largest")
        self.assertEqual(S.at_option({"at": "all"}), "all")
        with self.assertRaises(ValueError):
            S.at_option({"at": "smallest"})
        self.assertEqual(S.vary_axes({}), [])
        self.assertEqual(S.vary_axes({"vary": ["gpus"]}), ["gpus"])
        for bad in ("gpus", [1]):
            with self.assertRaises(ValueError):
                S.vary_axes({"vary": bad})

    def test_same_axes_compares_shared_axes_as_text(self):
        a = C.make_v2_point(axes={"group_size": "256", "gpus": "1"})
        b = C.make_v2_point(axes={"group_size": 256, "gpus": "2", "extra": "x"})
        self.assertFalse(S.same_axes(a, b))
        self.assertTrue(S.same_axes(a, b, vary=["gpus"]))

    def test_at_largest_per_app(self):
        pts = [C.make_point("mars", "cuda", "1MiB", MiB, 1.0, app="a"),
               C.make_point("mars", "cuda", "4MiB", 4 * MiB, 1.0, app="a"),
               C.make_point("mars", "cuda", "1MiB", MiB, 1.0, app="b")]
        self.assertEqual([(p["app"], p["dataset"]["label"]) for p in S.at_largest(pts)], [("a", "4MiB"), ("b", "1MiB")])

    def test_is_invalid_and_place(self):
        self.assertFalse(S.is_invalid(C.make_v2_point()))
        self.assertTrue(S.is_invalid(C.make_v2_point(validation="failed")))
        self.assertFalse(S.is_invalid(C.make_v2_point(status="error")))  # did not run: missing, not invalid
        self.assertEqual(S.place(C.make_v2_point(axes=axes(64))), "segsum@1GiB group_size=64 segment=1024")


if __name__ == "__main__":
    unittest.main()
