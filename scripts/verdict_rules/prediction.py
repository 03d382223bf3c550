"""The model_error rule: a model's predictions against the measurements."""

from __future__ import annotations

import json
import statistics

from results_doc import (fmt_num, group_by_device, line_key, matches, not_skipped, stat,
                         value_text, x_value)

from .registry import rule
from .selection import invalid_text, is_invalid, place
from .verdict import NOT_RUN, Verdict, decide, skipped_verdicts, verdict_for, verdict_key


@rule("model_error")
def model_error(spec: dict, points: list[dict]) -> list[Verdict]:
    """A model's prediction against measurement, both recorded on each
    candidate point (e.g. counter:speedup_predicted and
    counter:speedup_measured), per device.

    spec: {"candidate": matcher, "predicted": metric, "measured": metric, "x":
    axis, "max_median_error": 0.3}. Relative error |predicted - measured| /
    measured per point. Holds if the median relative error is below
    max_median_error and, in every series along x, the prediction moves the
    same way as the measurement from the smallest to the largest x (the
    predicted trend matches); does not hold otherwise or if a candidate failed
    validation; not run without a point that has both."""
    pred_m, meas_m = spec.get("predicted"), spec.get("measured")
    x = spec.get("x")
    if not isinstance(pred_m, str) or not isinstance(meas_m, str) or not isinstance(x, str):
        raise ValueError("'predicted', 'measured' (metrics) and 'x' (an axis) are required")
    max_err = float(spec.get("max_median_error", 0.3))
    all_cands = [p for p in points if matches(p, spec.get("candidate") or {})]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        invalid, missing, errors = [], [], []
        series: dict[str, dict[float, list[tuple]]] = {}
        for p in group:
            if is_invalid(p):
                invalid.append(f"{place(p)}: {invalid_text(p)}")
                continue
            pv, mv, xv = stat(p, pred_m), stat(p, meas_m), x_value(p, x)
            if p.get("status") != "ok" or pv is None or mv is None or not mv > 0 or xv is None:
                missing.append(f"{place(p)}: " + (str(p.get("error") or p.get("status")) if p.get("status") != "ok"
                                                  else f"no {pred_m} / {meas_m}"))
                continue
            errors.append(abs(pv - mv) / mv)
            series.setdefault(line_key(p, x), {}).setdefault(xv, []).append((pv, mv))
        measured, failing = [], []
        if errors:
            med = statistics.median(errors)
            text = f"median relative error {100 * med:.1f}% over {len(errors)} point(s)"
            measured.append(text)
            if not med < max_err:
                failing.append(text + f" (needs < {100 * max_err:.1f}%)")
            for line, by_x in sorted(series.items()):
                steps = sorted((xv, statistics.median(a for a, _ in v), statistics.median(b for _, b in v))
                               for xv, v in by_x.items())
                if len(steps) < 2:
                    continue
                (x0, p0, m0), (x1, p1, m1) = steps[0], steps[-1]
                trend = (f"{line}: {x}={value_text(x0)} -> {value_text(x1)} predicted {fmt_num(p0)} -> {fmt_num(p1)}, "
                         f"measured {fmt_num(m0)} -> {fmt_num(m1)}")
                measured.append(trend)
                if (p1 > p0) != (m1 > m0):
                    failing.append(trend + " (the trends differ)")
        out.append(decide(key, invalid=invalid[:5], measured=measured, failing=failing, notes=missing[:5],
                          not_run=f"no validated point with {pred_m} and {meas_m}",
                          fail_prefix="model does not hold: ", fail_shows=failing,
                          hold_prefix=f"model holds (median error < {100 * max_err:.1f}%, trends match): "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out
