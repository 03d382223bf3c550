#!/usr/bin/env python3
"""Write a reproduction report from harness results documents.

    python3 scripts/report.py --out-dir DIR RESULTS.json...

Writes DIR/report.md (environments, measured ceilings, and per experiment: the
figure DIR/<id>.png when scripts/plot.py made it, the original claim, the
declared axes / measurement / validation policies, the verdict rule, the
reproduced numbers with each point's measurement outcome, points that did not
run, skipped points with their reasons, points that used several devices,
rates and their fractions of the measured ceilings, per-phase medians and the
verdict per backend/device with the numbers that decided it) and
DIR/verdicts.json (a list of {experiment, backend, device_index, device,
verdict, detail, rule, note}; the note says when a kernel backend's device is a
CPU, e.g. PoCL). Reads results format versions 1 and 2.

Results files with the same experiment id are merged. Exit status: 0 (also
when verdicts do not hold), 2 when an input cannot be read or is not a results
document, 1 when the output cannot be written.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_doc as rd  # noqa: E402
import verdict_rules  # noqa: E402


def cell(x) -> str:
    """Markdown table cell: no pipes or newlines."""
    return str(x).replace("|", "\\|").replace("\n", " ")


def table(header: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return lines


def gib(n) -> str:
    if not isinstance(n, (int, float)) or n <= 0:
        return ""
    return f"{n / 2**30:.1f} GiB"


def env_fingerprint(env: dict) -> str:
    return json.dumps(env, sort_keys=True)


def environment_section(docs: list[dict], paths: list[str]) -> tuple[list[str], dict[int, int]]:
    """Markdown for every distinct environment; maps document index -> environment number."""
    envs: list[dict] = []
    files: list[list[str]] = []
    doc_env: dict[int, int] = {}
    seen: dict[str, int] = {}
    for i, doc in enumerate(docs):
        env = doc.get("environment") if isinstance(doc.get("environment"), dict) else {}
        fp = env_fingerprint(env)
        if fp not in seen:
            seen[fp] = len(envs)
            envs.append(env)
            files.append([])
        doc_env[i] = seen[fp] + 1
        files[seen[fp]].append(os.path.basename(paths[i]))

    out = ["## Environments", ""]
    for n, (env, fl) in enumerate(zip(envs, files), start=1):
        host = env.get("host") if isinstance(env.get("host"), dict) else {}
        out.append(f"### Environment {n}: {host.get('hostname', 'unknown host')}")
        out.append("")
        out.append(f"- Results files: {', '.join(fl)}")
        out.append(f"- Host: {host.get('cpu', '?')}, {host.get('cores', '?')} cores, "
                   f"{gib(host.get('memory_bytes')) or '? memory'}; {host.get('os', '?')}")
        out.append(f"- Compiler: {env.get('compiler', '?')}; CUDA compiler: {env.get('cuda_compiler') or 'none'}; "
                   f"build type {env.get('build_type', '?')}")
        out.append(f"- Harness {env.get('harness_version', '?')}, git {env.get('git_sha', 'unknown')}; "
                   f"backends compiled: {', '.join(env.get('backends_compiled') or []) or '?'}")
        devices = [d for d in env.get("devices") or [] if isinstance(d, dict)]
        if devices:
            out.append("")
            rows = []
            for d in devices:
                extra = []
                if d.get("compute_capability"):
                    extra.append(f"sm {d['compute_capability']}")
                if d.get("l2_cache_bytes"):
                    l2 = d["l2_cache_bytes"]
                    extra.append(f"L2 {l2 / 2**20:.0f} MiB" if l2 >= 2**20 else f"L2 {l2 / 2**10:.0f} KiB")
                rows.append([f"{d.get('backend', '?')}:{d.get('index', '?')}", d.get("name", ""),
                             d.get("type", ""), d.get("vendor", ""), d.get("driver_version", ""),
                             d.get("api_version", ""), gib(d.get("global_memory_bytes")),
                             d.get("compute_units", ""), ", ".join(extra)])
            out += table(["device", "name", "type", "vendor", "driver", "API", "memory", "compute units", "notes"],
                         rows)
        out.append("")
    return out, doc_env


def ceilings_section(docs: list[dict]) -> list[str]:
    rows, seen = [], set()
    for doc in docs:
        env = doc.get("environment") if isinstance(doc.get("environment"), dict) else {}
        host = (env.get("host") or {}).get("hostname", "?") if isinstance(env.get("host"), dict) else "?"
        names = {(d.get("backend"), d.get("index")): d.get("name", "")
                 for d in env.get("devices") or [] if isinstance(d, dict)}
        for c in doc.get("ceilings") or []:
            if not isinstance(c, dict):
                continue
            dev = f"{c.get('backend', '?')}:{c.get('device_index', '?')}"
            name = names.get((c.get("backend"), c.get("device_index")))
            row = [host, dev + (f" ({name})" if name else ""), c.get("name", "?"),
                   rd.fmt_num(c.get("value"), 4) if isinstance(c.get("value"), (int, float)) else "?",
                   c.get("unit", ""), c.get("host_memory", ""), c.get("method", "")]
            if tuple(map(str, row)) not in seen:
                seen.add(tuple(map(str, row)))
                rows.append(row)
    out = ["## Measured ceilings", ""]
    header = ["host", "device", "ceiling", "value", "unit", "host memory", "method"]
    if rows and not any(r[5] for r in rows):  # no copy ceiling says pinned/pageable
        header.pop(5)
        rows = [r[:5] + r[6:] for r in rows]
    if rows:
        out += table(header, rows)
    else:
        out.append("No ceilings were measured in these runs.")
    out.append("")
    return out


def point_order(p: dict):
    """Series, app, dataset size, then the axis values in the experiment's order."""
    return (rd.series_name(p), str(p.get("app", "")), rd.dataset_size(p), rd.dataset_label(p), rd.axes_order(p))


def _pct(x) -> str:
    return f"{100 * x:.1f}%" if isinstance(x, (int, float)) and not isinstance(x, bool) else "n/a"


def _values(values) -> str:
    return ", ".join(rd.value_text(v) for v in values) if isinstance(values, list) else rd.value_text(values)


def policy_lines(spec: dict) -> list[str]:
    """The experiment's declared axes, measurement and validation policies (version 2)."""
    out = []
    axes = spec.get("axes")
    if isinstance(axes, dict) and axes:
        out.append("**Axes.** " + "; ".join(f"`{k}` = {_values(v)}" for k, v in axes.items()))
    m = spec.get("measurement")
    if isinstance(m, dict) and m:
        parts = []
        if "warmup" in m:
            parts.append(f"{m['warmup']} warm-up run(s)")
        lo, hi = m.get("min_reps"), m.get("max_reps")
        if lo is not None and hi is not None and lo != hi:
            parts.append(f"{lo} to {hi} repetitions")
        elif lo is not None or hi is not None:
            parts.append(f"{lo if lo is not None else hi} repetitions")
        if isinstance(m.get("target_rel_spread"), (int, float)) and m["target_rel_spread"]:
            parts.append(f"stop once the relative spread is <= {_pct(m['target_rel_spread'])}")
        if isinstance(m.get("max_time_s"), (int, float)) and m["max_time_s"]:
            parts.append(f"at most {rd.fmt_num(m['max_time_s'])} s of measuring per point")
        if "cold" in m:
            parts.append("cold (L2 flushed before each run)" if m["cold"] else "warm caches")
        out.append("**Measurement.** " + "; ".join(parts) + ".")
    v = spec.get("validation")
    if isinstance(v, dict) and v.get("kind"):
        tol = [f"{k} {v[k]:g}" for k in ("rel", "abs") if isinstance(v.get(k), (int, float))]
        out.append(f"**Validation.** {v['kind']}" + (f" ({', '.join(tol)})" if tol else "") + ".")
    return out


def measurement_cell(p: dict) -> str:
    """'7 (spread, 1.3%)' from a version-2 point's measurement; the repetition
    count alone for version 1."""
    m = p.get("measurement")
    if isinstance(m, dict) and m:
        n = m.get("repetitions", len(p.get("repetitions") or []))
        extra = [str(m["stopped"])] if m.get("stopped") else []
        if isinstance(m.get("rel_spread"), (int, float)):
            extra.append(_pct(m["rel_spread"]))
        return f"{n}" + (f" ({', '.join(extra)})" if extra else "")
    return str(len(p.get("repetitions") or []))


def validation_cell(p: dict) -> str:
    v = p.get("validation") if isinstance(p.get("validation"), dict) else {}
    status = rd.validation_status(p)
    return f"{status} ({v['kind']})" if v.get("kind") else status


def rates_section(points: list[dict], ds) -> list[str]:
    """'Rates and fractions of ceilings': one row per rate of each point."""
    rows = []
    for p in points:
        for r in rd.point_rates(p):
            value = rd.as_number(r.get("value"))
            unit = str(r.get("unit", ""))
            ceiling = ""
            if r.get("ceiling"):
                cv = rd.as_number(r.get("ceiling_value"))
                ceiling = str(r["ceiling"]) + (f" {rd.fmt_num(cv, 4)} {unit}" if cv is not None else "")
            rows.append([rd.series_name(p), ds(p), r.get("name", "?"),
                         f"{rd.fmt_num(value, 4)} {unit}".strip(), r.get("over", ""), ceiling or "none",
                         _pct(rd.rate_fraction(r))])
    if not rows:
        return []
    return (["### Rates and fractions of ceilings", ""]
            + table(["series", "dataset", "rate", "value", "over", "ceiling", "fraction"], rows) + [""])


def fastest_section(points: list[dict], metric: str, ds) -> list[str]:
    """'Fastest variant per app': on each device, for each app (and dataset)
    that more than one variant ran, the fastest by the verdict's metric (a
    time: total_ms or phases; any other metric ranks by total_ms), how much
    faster than the next, and its rates over that time with their fractions
    of the ceilings: how close the best design comes to the hardware."""
    # Rank by time: the metric when it is total_ms or phases of the points,
    # else (a counter, a rate) by total_ms.
    phases = {ph for p in points for ph in (p.get("phase_order") or [])}
    parts = metric.split(rd.PHASE_SUM)
    if metric != "total_ms" and not all(part in phases for part in parts):
        metric, parts = "total_ms", ["total_ms"]
    groups: dict[tuple, list[dict]] = {}
    for p in points:
        if p.get("status") == "ok" and rd.stat(p, metric) is not None:
            groups.setdefault((rd.device_key(p), ds(p)), []).append(p)
    rows = []
    for (device, where), group in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if len({(p.get("framework"), p.get("variant")) for p in group}) < 2:
            continue
        ranked = sorted(group, key=lambda p: rd.stat(p, metric))
        best = ranked[0]
        variant = (best.get("framework"), best.get("variant"))
        runner_up = next(p for p in ranked if (p.get("framework"), p.get("variant")) != variant)
        rates = [f"{r.get('name')} {rd.fmt_num(rd.as_number(r.get('value')), 4)} {r.get('unit', '')}"
                 + (f" = {_pct(rd.rate_fraction(r))} of {r.get('ceiling')}" if r.get("ceiling") else "")
                 for r in rd.point_rates(best) if r.get("over") in parts]
        rows.append([rd.device_label(device), where, f"{best.get('framework')}/{best.get('variant')}",
                     rd.fmt_num(rd.stat(best, metric), 4),
                     f"{rd.fmt_num(rd.stat(runner_up, metric) / rd.stat(best, metric), 3)}x "
                     f"{runner_up.get('framework')}/{runner_up.get('variant')}",
                     "; ".join(rates) or "none"])
    if not rows:
        return []
    return ([f"### Fastest variant per app (by {metric})", ""]
            + table(["device", "app", "fastest", f"{metric} ms", "over the next", f"its rates over {metric}"],
                    rows) + [""])


def experiment_section(exp: rd.Experiment, verdicts: list[verdict_rules.Verdict], docs: list[dict], paths: list[str],
                       doc_env: dict[int, int], out_dir: str) -> list[str]:
    spec = exp.spec
    title = spec.get("title") or ""
    out = [f"## {exp.id}" + (f" \u2014 {title}" if title else ""), ""]
    meta = []
    if spec.get("seed"):
        meta.append(f"seed {spec['seed']}")
    if spec.get("preset"):
        meta.append(f"preset `{spec['preset']}`")
    envs = sorted({doc_env[i] for i in exp.documents})
    meta.append("environment " + ", ".join(str(e) for e in envs))
    meta.append("results " + ", ".join(os.path.basename(paths[i]) for i in exp.documents))
    out.append("- " + "; ".join(meta))
    incomplete = [os.path.basename(paths[i]) for i in exp.documents if docs[i].get("complete") is False]
    if incomplete:
        out.append(f"- **Incomplete run** (stopped early): {', '.join(incomplete)}")
    if exp.duplicates:
        out.append(f"- {len(exp.duplicates)} point(s) were measured in more than one results file "
                   f"(e.g. `{exp.duplicates[0]}`); each measurement is listed below, the figure shows one.")
    out.append("")

    png = f"{exp.id}.png"
    if os.path.exists(os.path.join(out_dir, png)):
        out += [f"![{exp.id}]({png})", ""]
    else:
        out += [f"*(no figure: run `python3 scripts/plot.py --out-dir {out_dir} RESULTS.json...` first)*", ""]

    out += [f"**Claim (original).** {spec.get('claim') or '(not stated)'}", ""]
    policies = policy_lines(spec)
    if policies:
        out += [f"- {line}" for line in policies] + [""]
    out.append(f"**Verdict rule.** {spec.get('verdict_rule') or '(not stated)'}")
    if isinstance(spec.get("verdict"), dict):
        out += ["", f"Machine-readable rule: `{json.dumps(spec['verdict'])}`"]
    out.append("")

    all_points = sorted(exp.points, key=point_order)
    points = rd.not_skipped(all_points)
    skipped = [p for p in all_points if rd.is_skipped(p)]
    multi_app = len({p.get("app") for p in all_points}) > 1

    def ds(p):
        text = f"{p.get('app')} {rd.dataset_label(p)}" if multi_app else rd.dataset_label(p)
        axes = rd.axes_text(p)
        return f"{text} {axes}" if axes else text

    out += ["### Reproduced numbers", ""]
    if not points:
        out += ["No points were measured." + (f" ({len(skipped)} skipped, below.)" if skipped else ""), ""]
    else:
        rows = []
        for p in points:
            rows.append([rd.series_name(p), ds(p), rd.fmt_num(rd.stat(p, "total_ms", "median"), 4),
                         rd.fmt_num(rd.stat(p, "total_ms", "min"), 4), rd.fmt_num(rd.stat(p, "total_ms", "max"), 4),
                         rd.fmt_num(rd.stat(p, "throughput_gbps", "median"), 3), measurement_cell(p),
                         validation_cell(p), p.get("status", "?")])
        out += table(["series", "dataset", "median total ms", "min", "max", "GB/s",
                      "repetitions (stopped, rel spread)", "validation", "status"], rows)
        out.append("")
        problems = [p for p in points if p.get("status") != "ok"]
        if problems:
            out.append("Points that did not run correctly:")
            out.append("")
            for p in problems:
                reason = p.get("error") or (p.get("validation") or {}).get("message") or ""
                out.append(f"- `{p.get('key')}`: {p.get('status')}" + (f": {reason}" if reason else ""))
            out.append("")
    if skipped:
        out += ["Skipped points (declined by the variant or the device; ignored by the verdict):", ""]
        out += [f"- `{p.get('key')}`: {rd.skip_reason(p)}" for p in skipped]
        out.append("")
    multi_device = [p for p in all_points if len(rd.point_devices(p)) > 1]
    if multi_device:
        out += ["Points that used more than one device (the first is the primary):", ""]
        out += [f"- `{p.get('key')}`: " + ", ".join(rd.device_label(d) for d in rd.point_devices(p))
                for p in multi_device]
        out.append("")

    if points:
        verdict = spec.get("verdict") if isinstance(spec.get("verdict"), dict) else {}
        metric = verdict.get("metric") if isinstance(verdict.get("metric"), str) else "total_ms"
        if multi_app:
            out += fastest_section(points, metric, ds)
        out += rates_section(points, ds)
        phase_order = rd.merge_phase_orders(points)
        with_phases = [p for p in points if any(rd.stat(p, ph) is not None for ph in phase_order)]
        if phase_order and with_phases:
            out += ["### Per-phase medians (ms)", ""]
            rows = [[rd.series_name(p), ds(p)] + [rd.fmt_num(rd.stat(p, ph), 4) if rd.stat(p, ph) is not None else ""
                                                  for ph in phase_order] for p in with_phases]
            out += table(["series", "dataset"] + phase_order, rows)
            out.append("")

    out += ["### Verdict", ""]
    for v in verdicts:
        where = rd.device_label((v.backend, v.device_index, v.device)) if v.backend is not None else "all devices"
        shown = f"**{v.verdict}**"
        out.append(f"- {where}: {shown}" + (f" \u2014 {v.detail}" if v.detail else "")
                   + (f" *(Note: {v.note}.)*" if v.note else ""))
    out.append("")
    return out


def summary_section(verdicts: list[verdict_rules.Verdict]) -> list[str]:
    rows = []
    for v in verdicts:
        where = rd.device_label((v.backend, v.device_index, v.device)) if v.backend is not None else "all devices"
        rows.append([f"[{v.experiment}](#{anchor(v.experiment)})", where,
                     f"**{v.verdict}**" + (" (device is a CPU)" if v.note else "")])
    out = ["## Summary", ""]
    out += table(["experiment", "backend/device", "verdict"], rows) if rows else ["No experiments."]
    out.append("")
    return out


def time_section(docs: list[dict], paths: list[str]) -> list[str]:
    """Each results file's wall time (its experiment on its backends and
    preset) and their sum: a resumed or sharded reproduction still adds up
    to the suite's time."""
    rows, total, unknown = [], 0.0, 0
    for doc, path in zip(docs, paths):
        exp = doc.get("experiment") or {}
        backends = sorted({str(p.get("backend")) for p in doc.get("points", []) if p.get("status") != "skipped"})
        w = rd.wall_seconds(doc)
        if w is None:
            unknown += 1
        else:
            total += w
        rows.append([f"`{os.path.basename(path)}`", exp.get("id", "?"), exp.get("preset", "-"),
                     ", ".join(backends) or "-", len(doc.get("points", [])),
                     "yes" if doc.get("complete") else "no", "-" if w is None else f"{w:.1f}"])
    out = ["## Time", "",
           "Wall time of each results file, from the start of its run to its last rewrite (`wall_s`; "
           "`updated_at` - `started_at` for older files), and the sum.", ""]
    rows.append(["**total**", "", "", "", sum(len(d.get("points", [])) for d in docs), "",
                 f"**{total:.1f}** s ({total / 60:.1f} min)" + (f", {unknown} file(s) without a time" if unknown
                                                                 else "")])
    out += table(["file", "experiment", "preset", "backends", "points", "complete", "wall s"], rows)
    out.append("")
    return out


def anchor(experiment_id: str) -> str:
    """GitHub-style heading anchor of '## <id> — <title>' is hard to predict;
    link to an explicit anchor instead (written before each section)."""
    return "exp-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in experiment_id)


def build_report(docs: list[dict], paths: list[str], out_dir: str) -> tuple[str, list[verdict_rules.Verdict]]:
    experiments = rd.merge_experiments(docs)
    per_exp = [(exp, verdict_rules.evaluate_experiment(exp)) for exp in experiments]
    all_verdicts = [v for _, vs in per_exp for v in vs]
    now = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")

    lines = ["# GPU big-data harness: reproduction report", "",
             f"Generated {now} by `scripts/report.py` from {len(paths)} results file(s): "
             + ", ".join(f"`{os.path.basename(p)}`" for p in paths) + ".", "",
             "Times are milliseconds (median of the measured repetitions, min and max beside it); "
             "GB/s = 1e9 bytes/s of input processed. Rates (results format 2) are GB/s of bytes moved or "
             "G/s (1e9 items/s) over the median time of what they are over, with their fraction of the "
             "ceiling measured on the same device. Verdicts are evaluated per backend/device: "
             "**holds**, **does not hold** or **not run**; skipped points are ignored by them.", ""]
    lines += summary_section(all_verdicts)
    lines += time_section(docs, paths)
    env_lines, doc_env = environment_section(docs, paths)
    lines += env_lines
    lines += ceilings_section(docs)
    for exp, vs in per_exp:
        lines.append(f'<a id="{anchor(exp.id)}"></a>')
        lines.append("")
        lines += experiment_section(exp, vs, docs, paths, doc_env, out_dir)
    tab5 = next((exp for exp, _ in per_exp if exp.id == "mars.tab5"), None)
    if tab5 is not None or any(exp.id.startswith("mars.") for exp, _ in per_exp):
        lines += tab5_section(tab5.points if tab5 is not None else None)
    return "\n".join(lines).rstrip() + "\n", all_verdicts


def tab5_section(points: list[dict] | None = None) -> list[str]:
    """mars.tab5: lines of user code per app. With the points of experiment
    mars.tab5 (tables/user-code), its counts per device beside the paper's and
    this checkout's (scripts/mars_tab5.py); without, the checkout's counts only."""
    import mars_tab5  # beside this script
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = ['<a id="mars-tab5"></a>', "", "## mars.tab5: lines of user code per app", ""]
    try:
        rows = mars_tab5.rows(repo)
    except OSError as e:
        if not points:
            return out + [f"Not counted: the app sources are not here ({e}).", ""]
        rows = [[f"{mars_tab5.LABELS[app]} ({app})", None, mars, phoenix]
                for app, (mars, phoenix) in mars_tab5.PAPER.items()]
    out += ["Non-blank, non-comment lines of each app's user code in the portable dialect (types, map, "
            "reduce; summed over the jobs of PVC and PVR), beside the Mars paper's table 5. The host "
            "side (record splitting, side data, CPU reference) is not counted.", ""]
    ok = [p for p in points or [] if p.get("status") == "ok" and p.get("framework") == "tables"]
    if not ok:
        out += ["Counted by `scripts/mars_tab5.py` in this checkout (experiment `mars.tab5` not in these "
                "results, so no verdict here).", ""]
        return out + table(mars_tab5.HEADER, rows) + [""]
    # The experiment's counts (the harness's C++ count of its embedded sources), per device.
    by_device: dict[tuple, dict[str, float]] = {}
    for p in ok:
        counters = p.get("counters") if isinstance(p.get("counters"), dict) else {}
        if "user_lines" in counters:
            by_device.setdefault(rd.device_key(p), {})[str(p.get("app"))] = counters["user_lines"]
    apps = {label.split(" ")[0]: f"mars-{label.split(' ')[0].lower()}" for label, *_ in rows}
    devices = sorted(by_device, key=str)
    header = (["app"] + [f"ours, experiment ({rd.device_label(k)})" for k in devices]
              + ["ours, scripts/mars_tab5.py", "Mars paper", "Phoenix paper"])
    body = []
    for label, ours, mars, phoenix in rows:
        app = apps[label.split(" ")[0]]
        body.append([label] + [rd.fmt_num(by_device[k].get(app)) if app in by_device[k] else "" for k in devices]
                    + ["" if ours is None else ours, mars, phoenix])
    out += ["The experiment's counts come from the harness binary (its embedded sources); "
            "`scripts/mars_tab5.py` counts this checkout's files independently. The verdict is in the "
            "[experiment's section](#" + anchor("mars.tab5") + ").", ""]
    return out + table(header, body) + [""]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Write DIR/report.md and DIR/verdicts.json from results files.")
    ap.add_argument("--out-dir", required=True, metavar="DIR")
    ap.add_argument("results", nargs="+", metavar="RESULTS.json")
    args = ap.parse_args(argv)
    try:
        docs = rd.load_documents(args.results)
    except rd.ResultsInputError as e:
        print(f"report.py: {e}", file=sys.stderr)
        return 2
    try:
        os.makedirs(args.out_dir, exist_ok=True)
        text, verdicts = build_report(docs, args.results, args.out_dir)
        for name, content in (("report.md", text),
                              ("verdicts.json", json.dumps([v.to_dict() for v in verdicts], indent=2) + "\n")):
            path = os.path.join(args.out_dir, name)
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(content)
            os.replace(tmp, path)
    except OSError as e:
        print(f"report.py: cannot write the report: {e}", file=sys.stderr)
        return 1
    print(f"report.py: wrote {os.path.join(args.out_dir, 'report.md')} and verdicts.json "
          f"({len(verdicts)} verdict(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
