#!/usr/bin/env python3
"""verdict_rules.verdict: how a rule's measurements become a verdict (decide),
and "not run" for devices whose points were all skipped."""

import unittest

import _common as C
from verdict_rules import verdict as V

KEY = ("cuda", 0, "H100")


def decide(**kw):
    args = dict(invalid=[], measured=[], failing=[], notes=[], not_run="nothing ran", fail_prefix="fails: ",
                hold_prefix="holds: ")
    args.update(kw)
    return V.decide(KEY, **args)


class DecideTest(unittest.TestCase):
    def test_order_of_the_outcomes(self):
        v = decide(invalid=["a: failed"], measured=["m"], failing=["m"], notes=["n"])
        self.assertEqual((v.verdict, v.detail), (V.DOES_NOT_HOLD, "invalid result: a: failed; m; n"))
        v = decide(notes=["n"])
        self.assertEqual((v.verdict, v.detail), (V.NOT_RUN, "nothing ran; n"))
        v = decide(measured=["m1", "m2"], failing=["m2"])
        self.assertEqual((v.verdict, v.detail), (V.DOES_NOT_HOLD, "fails: m2"))
        v = decide(measured=["m1", "m2"], failing=["m2"], fail_shows=["m1", "m2"])
        self.assertEqual(v.detail, "fails: m1; m2")
        v = decide(measured=["m1", "m2"])
        self.assertEqual((v.verdict, v.detail), (V.HOLDS, "holds: m1; m2"))
        self.assertEqual((v.backend, v.device_index, v.device), KEY)
        self.assertEqual(V.verdict_key(v), KEY)

    def test_skipped_verdicts(self):
        pts = [C.make_v2_point(axes=C.axes(g), status="skipped", skip_reason="tile") for g in (64, 128, 256, 512)]
        pts.append(C.make_v2_point(backend="opencl", device_name="PoCL", status="skipped"))
        vs = V.skipped_verdicts(pts, covered={("opencl", 0, "PoCL")})
        self.assertEqual([(v.backend, v.verdict) for v in vs], [("cuda", V.NOT_RUN)])
        # one reason for all (a variant that runs nowhere here): said once
        self.assertEqual(vs[0].detail, "all 4 point(s) skipped: tile")
        pts = [C.make_v2_point(axes=C.axes(g), status="skipped", skip_reason=f"tile {g}") for g in (64, 128, 256, 512)]
        vs = V.skipped_verdicts(pts, covered=set())
        self.assertIn("all 4 point(s) skipped", vs[0].detail)
        self.assertIn("tile 256 and 1 more", vs[0].detail)
        self.assertIsNone(V.verdict_for(None, V.HOLDS, "").backend)


if __name__ == "__main__":
    unittest.main()
