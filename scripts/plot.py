#!/usr/bin/env python3
"""Plot harness results: one figure per experiment id.

    python3 scripts/plot.py --out-dir DIR RESULTS.json...

Points of several files with the same experiment id are merged into one figure,
written as DIR/<experiment_id>.png and DIR/<experiment_id>.pdf. The figure kind
comes from the experiment's "plot": {"kind": ...}:

  bars (default)  top: grouped bars of the median total time (ms; log scale when
                  the medians span more than 30x) with min-max error bars,
                  x = dataset (ordered by size; with its axis values when the
                  experiment sweeps axes), one bar per series
                  "framework/variant @ backend:device"; bottom: stacked per-phase
                  medians of the largest dataset of each series. Points that
                  failed validation are hatched and marked "failed"; points that
                  could not run are marked "error".
  lines           a sweep: x = plot.x (an axis or params name, or "size_bytes" by
                  default; numeric values, also when written as strings), y =
                  plot.y ("total_ms" default, "throughput_gbps", a phase name,
                  "rate:<name>", "fraction:<name>" or "counter:<name>"; or a
                  list of them: the first that some point of the panel has),
                  one line per series and
                  per value of the other axes (and app/dataset when several);
                  plot.facet ("backend" or an axis name, optional) draws one
                  panel per value side by side;
                  the x axis is log2 when every x is a power of two (or the
                  values span more than 30x); failed points are crossed and
                  error points marked on the x axis.

  speedup         the verdict's candidate over its baseline, paired as the
                  rule pairs them (same app, dataset, device and axes, less
                  the rule's "vary" axes): y = baseline median / candidate
                  median of plot.y ("total_ms" default), x = plot.x; one panel
                  per device and app (4 a row), one line per value of the
                  "vary" axes (e.g. gpus=2 channels=p2p), a dashed line at 1x
                  and a dotted one at the rule's min_speedup.

Skipped points (results format version 2) are not drawn.

An unknown kind falls back to bars (with a note on stderr). Runs headless
(Agg backend). Exit status: 0; 2 when an input cannot be read or is not a
results document; 3 when matplotlib is not installed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_doc as rd  # noqa: E402
import verdict_rules  # noqa: E402

LOG_SPAN = 30.0
ERROR_COLOR = "#c0392b"


def _series_order(points: list[dict]) -> list[str]:
    order: list[str] = []
    for p in points:
        s = rd.series_name(p)
        if s not in order:
            order.append(s)
    return order


def _pick(candidates: list[dict]) -> dict | None:
    """One point among duplicates (same series and dataset from merged files):
    prefer one that ran."""
    if not candidates:
        return None
    for status in ("ok", "failed", "error"):
        for p in candidates:
            if p.get("status") == status:
                return p
    return candidates[0]


def _title(exp: rd.Experiment) -> str:
    title = exp.spec.get("title") or ""
    return exp.id + (f" \u2014 {title}" if title else "")


def _verdict_footer(exp: rd.Experiment) -> str:
    parts = []
    for v in verdict_rules.evaluate_experiment(exp):
        where = f"{v.backend}:{v.device_index}" if v.backend is not None else "all"
        parts.append(f"{where} {v.verdict}")
    return "verdict: " + "; ".join(parts) if parts else ""


def _finish(fig, exp: rd.Experiment, axes_count: int, top: float = 0.95) -> None:
    fig.suptitle("\n".join(textwrap.wrap(_title(exp), 100)), fontsize=11)
    footer = _verdict_footer(exp)
    if footer:
        fig.text(0.01, 0.005, "\n".join(textwrap.wrap(footer, 160)), fontsize=7, color="#444444",
                 ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.03, 1, top if axes_count else 1))


def plot_bars(exp: rd.Experiment, plt):
    import matplotlib.patches as mpatches
    import matplotlib.transforms as mtransforms

    points = rd.not_skipped(exp.points)
    series = _series_order(points)
    apps = sorted({str(p.get("app", "")) for p in points})
    multi_app = len(apps) > 1
    # x categories: (app, dataset label, axis values), ordered by app, size, axis values
    ordered = sorted(points, key=lambda p: (str(p.get("app", "")), rd.dataset_size(p), rd.dataset_label(p),
                                            rd.axes_order(p)))
    cats = []  # one entry per (app, label, axes) even if merged files disagree on the size
    for p in ordered:
        cat = (str(p.get("app", "")), rd.dataset_label(p), rd.axes_text(p))
        if cat not in cats:
            cats.append(cat)
    phases = rd.merge_phase_orders(points)
    has_phases = any(rd.stat(p, ph) is not None for p in points for ph in phases)

    n_cat, n_ser = max(1, len(cats)), max(1, len(series))
    width_in = min(28.0, max(11.0, 4.0 + 0.32 * n_cat * n_ser + 0.6 * n_cat))
    nrows = 2 if has_phases else 1
    fig, axes = plt.subplots(nrows, 1, figsize=(width_in, 4.6 * nrows + 0.8), squeeze=False)
    ax = axes[0][0]
    colors = plt.get_cmap("tab10").colors

    bar_w = 0.8 / n_ser
    medians = []
    marks = []  # (x, text, color) for points without a bar, drawn once the y range is known
    hatch_used: list[str] = []
    for si, s in enumerate(series):
        color = colors[si % len(colors)]
        xs, hs, lo, hi, hatches = [], [], [], [], []
        for ci, (app, label, ax_text) in enumerate(cats):
            p = _pick([q for q in points if rd.series_name(q) == s and str(q.get("app", "")) == app
                       and rd.dataset_label(q) == label and rd.axes_text(q) == ax_text])
            if p is None:
                continue
            x = ci - 0.4 + bar_w * (si + 0.5)
            med = rd.stat(p, "total_ms", "median")
            if p.get("status") == "error" or med is None:
                marks.append((x, p.get("status", "error") if p.get("status") != "ok" else "no data", color))
                continue
            mn = rd.stat(p, "total_ms", "min") or med
            mx = rd.stat(p, "total_ms", "max") or med
            xs.append(x)
            hs.append(med)
            lo.append(max(0.0, med - mn))
            hi.append(max(0.0, mx - med))
            medians.append(med)
            failed = p.get("status") == "failed" or rd.validation_status(p) == "failed"
            hatches.append("///" if failed else "")
            if failed:
                hatch_used.append("failed")
            if failed:
                ax.annotate("failed", (x, mx), xytext=(0, 3), textcoords="offset points", rotation=90,
                            ha="center", va="bottom", fontsize=8, color=ERROR_COLOR, fontweight="bold")
        if xs:
            bars = ax.bar(xs, hs, bar_w * 0.95, yerr=[lo, hi], capsize=2, color=color, label=s,
                          edgecolor="black", linewidth=0.4, error_kw={"elinewidth": 0.8})
            for bar, hatch in zip(bars, hatches):
                if hatch:
                    bar.set_hatch(hatch)
                    bar.set_edgecolor(ERROR_COLOR)
    positive = [m for m in medians if m > 0]
    if positive and max(positive) / min(positive) > LOG_SPAN:
        ax.set_yscale("log")
    if not medians:
        ax.set_ylim(0, 1)
    blend = mtransforms.blended_transform_factory(ax.transData, ax.transAxes)
    for x, text, color in marks:
        ax.text(x, 0.02, text, transform=blend, rotation=90, ha="center", va="bottom", fontsize=8,
                color=ERROR_COLOR, fontweight="bold")

    ax.set_xticks(range(len(cats)))
    ax.set_xticklabels([(f"{a}\n{l}" if multi_app else l) + ("\n" + x.replace(" ", "\n") if x else "")
                        for a, l, x in cats],
                       fontsize=8 if any(x for _, _, x in cats) else None)
    ax.set_xlim(-0.6, len(cats) - 0.4)
    ax.set_xlabel("dataset")
    ax.set_ylabel("median total time (ms)")
    ax.grid(axis="y", alpha=0.3, which="both")
    handles = [mpatches.Patch(facecolor=colors[i % len(colors)], edgecolor="black", linewidth=0.4, label=s)
               for i, s in enumerate(series)]
    if any(t == "failed" for t in hatch_used):
        handles.append(mpatches.Patch(facecolor="white", edgecolor=ERROR_COLOR, hatch="///",
                                      label="failed validation"))
    ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))

    if has_phases:
        ax2 = axes[1][0]
        groups = []  # (label, point)
        for s in series:
            for app in apps:
                pts = [q for q in points if rd.series_name(q) == s and str(q.get("app", "")) == app
                       and any(rd.stat(q, ph) is not None for ph in phases)]
                if not pts:
                    continue
                biggest = max(rd.dataset_size(q) for q in pts)
                p = _pick([q for q in pts if rd.dataset_size(q) == biggest])
                label = f"{s} \u00b7 {app + ' ' if multi_app else ''}{rd.dataset_label(p)}"
                if rd.axes_text(p):
                    label += f" {rd.axes_text(p)}"
                groups.append((label, p))
        phase_colors = plt.get_cmap("tab10" if len(phases) <= 10 else "tab20").colors
        bottoms = [0.0] * len(groups)
        for pi, ph in enumerate(phases):
            vals = [rd.stat(p, ph) or 0.0 for _, p in groups]
            if not any(vals):
                continue
            ax2.bar(range(len(groups)), vals, 0.6, bottom=bottoms, label=ph,
                    color=phase_colors[pi % len(phase_colors)], edgecolor="black", linewidth=0.3)
            bottoms = [b + v for b, v in zip(bottoms, vals)]
        for gi, (_, p) in enumerate(groups):
            note = rd.fmt_num(bottoms[gi]) + " ms"
            if p.get("status") != "ok":
                note += f" ({p.get('status', '')})"
            ax2.text(gi, bottoms[gi], note, ha="center", va="bottom", fontsize=8,
                     color=ERROR_COLOR if p.get("status") != "ok" else "black")
        ax2.set_xticks(range(len(groups)))
        ax2.set_xticklabels([g[0] for g in groups], fontsize=8, rotation=20, ha="right",
                            rotation_mode="anchor")
        ax2.set_ylabel("median phase time (ms)")
        ax2.set_title("per-phase medians, largest dataset of each series", fontsize=9)
        ax2.grid(axis="y", alpha=0.3)
        ax2.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _finish(fig, exp, nrows)
    return fig


def _is_pow2(v: float) -> bool:
    return v > 0 and float(v).is_integer() and (int(v) & (int(v) - 1)) == 0


def _is_axis(exp: rd.Experiment, x: str) -> bool:
    axes = exp.spec.get("axes")
    return (isinstance(axes, dict) and x in axes) or any(x in rd.point_axes(p) for p in exp.points)


def _facet_value(p: dict, facet: str) -> str:
    """The panel a point belongs to: its backend (with the device), or the value
    of an axis/param/top-level field."""
    if facet == "backend":
        dev = rd.short_device(str(p.get("device_name", "")))
        return f"{p.get('backend', '?')}" + (f" ({dev})" if dev else "")
    v = rd.point_axes(p).get(facet, (p.get("params") or {}).get(facet, p.get(facet)))
    return f"{facet}={rd.value_text(v)}" if v is not None else f"{facet}=?"


def _choose_y(y_spec, points: list[dict]) -> str:
    """plot.y: one metric, or a list of them meaning the first that some point
    of the panel has (e.g. a hit rate merged from a profiler where present,
    else a run-time rate)."""
    if isinstance(y_spec, list):
        names = [str(y) for y in y_spec] or ["total_ms"]
        for y in names:
            if any(rd.stat(p, y) is not None for p in points):
                return y
        return names[-1]
    return str(y_spec)


def _draw_lines(exp: rd.Experiment, ax, plt, points: list[dict], x_name: str, y_name: str) -> None:
    colors = plt.get_cmap("tab10").colors
    markers = "osD^v<>ph*"
    multi_app = len({str(p.get("app", "")) for p in points}) > 1
    multi_ds = len({rd.dataset_label(p) for p in points}) > 1
    lines: dict[str, list[dict]] = {}
    for p in points:
        if rd.x_value(p, x_name) is not None:  # points without x (a variant lacking the axis) are left out
            lines.setdefault(rd.line_key(p, x_name, multi_app, multi_ds), []).append(p)
    ys_all = []
    for li, (name, pts) in enumerate(lines.items()):
        color = colors[li % len(colors)]
        marker = markers[(li // len(colors)) % len(markers)]
        pts = sorted((q for q in pts if rd.x_value(q, x_name) is not None), key=lambda q: rd.x_value(q, x_name))
        good = [(q, rd.x_value(q, x_name), rd.stat(q, y_name)) for q in pts
                if q.get("status") != "error" and rd.stat(q, y_name) is not None]
        if good:
            ax.plot([g[1] for g in good], [g[2] for g in good], marker=marker, color=color, label=name)
            ys_all += [g[2] for g in good if g[2] > 0]
            for q, xv, yv in good:
                if q.get("status") == "failed":
                    ax.plot([xv], [yv], marker="x", markersize=10, color=ERROR_COLOR)
                    ax.annotate("failed", (xv, yv), fontsize=7, color=ERROR_COLOR,
                                xytext=(3, 3), textcoords="offset points")
        else:
            ax.plot([], [], marker=marker, color=color, label=name)
        for q in pts:
            if q.get("status") == "error":
                ax.axvline(rd.x_value(q, x_name), color=ERROR_COLOR, alpha=0.3, linestyle=":")
                ax.annotate("error", (rd.x_value(q, x_name), 0), xycoords=("data", "axes fraction"),
                            fontsize=7, color=ERROR_COLOR, rotation=90, va="bottom")
    xs = sorted({rd.x_value(p, x_name) for pts in lines.values() for p in pts})
    if xs and min(xs) > 0 and (max(xs) / min(xs) > LOG_SPAN or (len(xs) > 1 and all(_is_pow2(v) for v in xs))):
        ax.set_xscale("log", base=2)
    if xs and len(xs) <= 12 and _is_axis(exp, x_name):
        # the swept values themselves as ticks, written as numbers
        ax.set_xticks(xs)
        ax.set_xticklabels([rd.value_text(v) for v in xs])
        ax.minorticks_off()
    if ys_all and max(ys_all) / min(ys_all) > LOG_SPAN:
        ax.set_yscale("log")
    ax.set_xlabel(x_name)
    if y_name.startswith(rd.FRACTION_PREFIX):
        ceilings = sorted({str(r.get("ceiling")) for p in points for r in rd.point_rates(p)
                           if r.get("name") == y_name[len(rd.FRACTION_PREFIX):] and r.get("ceiling")})
        ax.set_ylabel(f"{y_name[len(rd.FRACTION_PREFIX):]} / ceiling"
                      + (f" ({', '.join(ceilings)})" if ceilings else ""))
    elif y_name.startswith(rd.RATE_PREFIX):
        ax.set_ylabel(f"{y_name[len(rd.RATE_PREFIX):]} ({rd.metric_unit(y_name, points)})")
    elif y_name.startswith(rd.COUNTER_PREFIX):
        unit = rd.metric_unit(y_name, points)
        ax.set_ylabel(f"{y_name[len(rd.COUNTER_PREFIX):]}" + (f" ({unit})" if unit else ""))
    else:
        ax.set_ylabel(f"median {y_name} ({rd.metric_unit(y_name, points)})")
    ax.grid(alpha=0.3, which="both")
    if lines:
        ax.legend(fontsize=8)


def plot_lines(exp: rd.Experiment, plt):
    """plot: {"kind": "lines", "x": ..., "y": metric or [metrics, first present],
    "facet": "backend" | axis (optional: one panel per value, side by side)}."""
    spec = exp.spec.get("plot") or {}
    x_name = str(spec.get("x", "size_bytes"))
    y_spec = spec.get("y", "total_ms")
    points = rd.not_skipped(exp.points)
    facet = spec.get("facet")
    panels: dict[str, list[dict]] = {}
    if isinstance(facet, str) and facet:
        for p in points:
            panels.setdefault(_facet_value(p, facet), []).append(p)
    if len(panels) <= 1:
        fig, ax = plt.subplots(figsize=(10, 5.6))
        _draw_lines(exp, ax, plt, points, x_name, _choose_y(y_spec, points))
        if panels:
            ax.set_title(next(iter(panels)), fontsize=9)
    else:
        fig, axes = plt.subplots(1, len(panels), figsize=(7.5 * len(panels), 5.8), squeeze=False)
        for ax, (name, pts) in zip(axes[0], sorted(panels.items())):
            _draw_lines(exp, ax, plt, pts, x_name, _choose_y(y_spec, pts))
            ax.set_title(name, fontsize=9)
    _finish(fig, exp, 1)
    return fig


def speedup_pairs(exp: rd.Experiment, metric: str) -> list[tuple[dict, dict, float]]:
    """(candidate, baseline, speedup) for every candidate point of the
    experiment's verdict rule, at every value of the rule's "vary" axes (a
    figure of 2, 3 and 4 GPUs over 1 where the rule judges 2), paired with its
    baseline as the rule pairs them (verdict_rules.speedup.choose_baseline);
    the speedup is the baseline median over the candidate median (time
    metrics) or the inverse (rates)."""
    rule = exp.spec.get("verdict") or {}
    vary = verdict_rules.selection.vary_axes(rule)
    base_matcher, cand_matcher = rule.get("baseline") or {}, dict(rule.get("candidate") or {})
    cand_matcher["params"] = {k: v for k, v in (cand_matcher.get("params") or {}).items() if k not in vary}
    all_bases = [p for p in exp.points if rd.matches(p, base_matcher)]
    bases = [p for p in rd.not_skipped(all_bases) if rd.stat(p, metric) is not None]
    skipped_bases = [p for p in all_bases if p.get("status") == "skipped"]
    pairs = []
    for c in rd.not_skipped(exp.points):
        if rd.matches(c, base_matcher) or not rd.matches(c, cand_matcher) or rd.stat(c, metric) is None:
            continue
        b = verdict_rules.speedup.choose_baseline(c, bases, metric, vary, skipped_bases)
        if b is None:
            continue
        bv, cv = rd.stat(b, metric), rd.stat(c, metric)
        if bv and cv:
            pairs.append((c, b, cv / bv if rd.higher_is_better(metric) else bv / cv))
    return pairs


def plot_speedup(exp: rd.Experiment, plt):
    """plot: {"kind": "speedup", "x": ..., "y": metric}: the verdict rule's
    candidate over its baseline, a panel per device and app."""
    spec = exp.spec.get("plot") or {}
    x_name = str(spec.get("x", "size_bytes"))
    metric = str(spec.get("y", "total_ms"))
    rule = exp.spec.get("verdict") or {}
    vary = verdict_rules.selection.vary_axes(rule)
    panels: dict[tuple, dict[str, list]] = {}
    for c, _, speedup in speedup_pairs(exp, metric):
        x = rd.x_value(c, x_name)
        if x is None:
            continue
        axes = rd.point_axes(c)
        line = " ".join(f"{k}={rd.value_text(axes[k])}" for k in vary if k in axes) or rd.series_name(c)
        panel = (rd.device_label(rd.device_key(c)), str(c.get("app", "")))
        panels.setdefault(panel, {}).setdefault(line, []).append((x, speedup))
    cols = min(4, max(1, len(panels)))
    rows = max(1, -(-len(panels) // cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
    colors = plt.get_cmap("tab10").colors
    styles = ["-", "--", ":", "-."]
    names = sorted({n for lines in panels.values() for n in lines})
    # lines told apart by colour (first vary axis) and style (the rest)
    firsts = sorted({n.split(" ")[0] for n in names})
    rests = sorted({" ".join(n.split(" ")[1:]) for n in names})
    threshold = rule.get("min_speedup")
    for ax, (panel, lines) in zip(axes.flat, sorted(panels.items())):
        for name in names:
            if name not in lines:
                continue
            xy = sorted(lines[name])
            ax.plot([v[0] for v in xy], [v[1] for v in xy], marker="o", markersize=4, label=name,
                    color=colors[firsts.index(name.split(" ")[0]) % len(colors)],
                    linestyle=styles[rests.index(" ".join(name.split(" ")[1:])) % len(styles)])
        ax.axhline(1.0, color="#888888", linestyle="--", linewidth=0.8)
        if isinstance(threshold, (int, float)):
            ax.axhline(float(threshold), color=ERROR_COLOR, linestyle=":", linewidth=0.8)
        xs = sorted({v[0] for xy in lines.values() for v in xy})
        if xs and len(xs) <= 12:
            ax.set_xticks(xs)
            ax.set_xticklabels([rd.value_text(v) for v in xs])
            ax.minorticks_off()
        ax.set_title(f"{panel[1]} @ {panel[0]}", fontsize=9)
        ax.set_xlabel(x_name, fontsize=8)
        ax.set_ylabel(f"speedup ({metric})", fontsize=8)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    if not panels:
        axes[0][0].text(0.5, 0.5, "no candidate point of the verdict rule has a baseline to pair with",
                        ha="center", va="center", fontsize=9, transform=axes[0][0].transAxes)
    if panels:
        handles, labels = [], []
        for ax in axes.flat:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
        fig.legend(handles, labels, loc="upper center", fontsize=8, ncol=min(len(labels), 6),
                   bbox_to_anchor=(0.5, 0.955 - 0.01 * rows))
    _finish(fig, exp, rows * cols, top=0.935 - 0.012 * rows)
    return fig


PLOTTERS = {"bars": plot_bars, "lines": plot_lines, "speedup": plot_speedup}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="One figure per experiment id: DIR/<id>.png and .pdf.")
    ap.add_argument("--out-dir", required=True, metavar="DIR")
    ap.add_argument("--formats", default="png,pdf", help="comma-separated (default: %(default)s)")
    ap.add_argument("results", nargs="+", metavar="RESULTS.json")
    args = ap.parse_args(argv)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed (pip install matplotlib); no figures written")
        return 3

    try:
        docs = rd.load_documents(args.results)
    except rd.ResultsInputError as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2

    os.makedirs(args.out_dir, exist_ok=True)
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    global _JOB
    _JOB = (rd.merge_experiments(docs), args.out_dir, formats, plt)
    count = len(_JOB[0])
    # Figures are independent and matplotlib is single-threaded: draw them in
    # forked workers (most of a reproduction's report time otherwise).
    workers = min(count, os.cpu_count() or 1)
    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(_draw, range(count), chunksize=1)
    else:
        results = [_draw(i) for i in range(count)]
    for out, err in results:
        for line in err:
            print(line, file=sys.stderr)
        for line in out:
            print(line)
    return 0


_JOB = None  # (experiments, out_dir, formats, pyplot), set by main for _draw


def _draw(index: int) -> tuple[list[str], list[str]]:
    """Draws experiment `index` of _JOB; returns its stdout and stderr lines."""
    experiments, out_dir, formats, plt = _JOB
    exp = experiments[index]
    out, err = [], []
    kind = str((exp.spec.get("plot") or {}).get("kind", "bars"))
    plotter = PLOTTERS.get(kind)
    if plotter is None:
        err.append(f"plot.py: {exp.id}: unknown plot kind {kind!r}; drawing bars")
        plotter = plot_bars
    if exp.duplicates:
        err.append(f"plot.py: {exp.id}: {len(exp.duplicates)} point(s) measured in more than one file "
                   f"(e.g. {exp.duplicates[0]}); the figure shows one measurement of each (the first that ran)")
    fig = plotter(exp, plt)
    for fmt in formats:
        path = os.path.join(out_dir, f"{exp.id}.{fmt}")
        fig.savefig(path, dpi=150, bbox_inches="tight")
        out.append(f"plot.py: wrote {path}")
    plt.close(fig)
    return out, err

if __name__ == "__main__":
    sys.exit(main())
