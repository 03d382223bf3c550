"""Shared helpers of the verdict_rules tests: a rule evaluated on crafted
points (through merge_experiments, so points carry their document as in real
use) and crafted sweeps."""

import _common as C
import results_doc as rd
import verdict_rules as VR


def by_backend(verdicts):
    return {v.backend: v for v in verdicts}


def evaluate(rule, points):
    exp = rd.merge_experiments([C.make_document(points, rule)])[0]
    return VR.evaluate_experiment(exp)


def evaluate_v2(rule, points):
    exp = rd.merge_experiments([C.make_document_v2(points, rule)])[0]
    return VR.evaluate_experiment(exp)


def blocks_sweep(values, variant="tree", x="group_size", other=None, **kw):
    """A sweep of crafted points along `x` (powers of two from 64): the rate
    dram@reduce of each is values[i] x D2D GB/s."""
    pts = []
    for i, f in enumerate(values):
        ax = {x: str(64 << i)}
        ax.update(other or {})
        pts.append(C.make_v2_point(variant, ax, f, **kw))
    return pts


SAT = {"kind": "saturates", "candidate": {"variant": "tree"}, "x": "group_size",
       "metric": "rate:dram@reduce", "max_gain": 0.1}


def speedup_sweep(variant, fractions, x="groups", app="segsum", **kw):
    """Points of `variant` along x = 2, 4, 8, ...: phase "reduce" takes
    1 / fractions[i] time units, so a candidate's speedup over a baseline at a
    point is its fraction over the baseline's."""
    return [C.make_v2_point(variant, {x: str(2 << i)}, f, app=app, **kw) for i, f in enumerate(fractions)]
