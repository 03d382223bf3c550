#!/usr/bin/env python3
"""The figure catalogue: paper/FIGURES.md, generated from the experiment specs
in paper/experiments/*.json (each figure's or table's claim, what runs, and
the verdict rule), so the catalogue is part of the project and never drifts
from the specs the harness runs.

    python3 scripts/figures.py            # rewrite paper/FIGURES.md
    python3 scripts/figures.py --check    # exit 1 when paper/FIGURES.md is out of date (a CTest)
    python3 scripts/figures.py --stdout   # print it

Stdlib only.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(ROOT, "paper", "experiments")
OUT = os.path.join(ROOT, "paper", "FIGURES.md")
PRESETS = ("ci", "gpu", "full", "paper")

FAMILY_OF_PREFIX = {
    "atomics": "Atomics characterization (AtomicMR paper)",
    "blocks": "GPU building blocks (ours)",
    "core": "The harness core (ours)",
    "mars": "Mars (MapReduce on GPUs)",
    "modern": "Modern reference points (ours)",
    "streamit": "Stream graphs on several GPUs (StreamIt)",
    "streammr": "StreamMR and AtomicMR",
    "thesis": "The thesis' memory microbenchmarks",
}


def load_specs(folder: str = SPECS) -> list[dict]:
    specs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        spec["_file"] = os.path.relpath(path, ROOT)
        specs.append(spec)
    return sorted(specs, key=lambda s: str(s.get("id")))


def cell(x) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def values_text(v) -> str:
    """An axis or size list: [1, 2], {"pow2": [32, 1024]}, {"range": [...]}."""
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    if isinstance(v, dict) and "pow2" in v:
        lo, hi = v["pow2"]
        return f"powers of 2 from {lo} to {hi}"
    if isinstance(v, dict) and "range" in v:
        r = v["range"]
        return f"{r[0]} to {r[1]}" + (f" step {r[2]}" if len(r) > 2 else "")
    return json.dumps(v)


def per_preset(v) -> str:
    """'ci: ...; gpu: ...; full: ...; paper: ...' for a per-preset object, else the values."""
    if isinstance(v, dict) and set(v) <= set(PRESETS) and v:
        return "; ".join(f"{p}: {values_text(v[p])}" for p in PRESETS if p in v)
    return values_text(v)


def runs_text(spec: dict) -> list[str]:
    out = []
    for r in spec.get("runs") or []:
        variants = ", ".join(f"`{r.get('framework')}/{v}`" for v in r.get("variants") or [])
        apps = ", ".join(r.get("apps") or [])
        params = r.get("params") or {}
        fixed = (" with " + ", ".join(f"{k}={v}" for k, v in params.items())) if params else ""
        only = f" (presets {', '.join(r['presets'])} only)" if r.get("presets") else ""
        out.append(f"{variants} on {apps}{fixed}{only}")
    return out


def data_text(spec: dict) -> str:
    if spec.get("dataset") == "none":
        return "no input (the points make their own data)"
    text = f"`{spec.get('dataset')}` at {per_preset(spec.get('sizes') or {})}"
    for name, values in (spec.get("dataset_params") or {}).items():
        text += f"; its `{name}` at those sizes: {per_preset(values)}"
    for app, ad in (spec.get("app_datasets") or {}).items():
        text += f"; {app}: `{ad.get('dataset')}` at {per_preset(ad.get('sizes') or {})}"
    return text


def section(spec: dict) -> list[str]:
    sid = spec.get("id")
    out = [f'<a id="{anchor(sid)}"></a>', "", f"### `{sid}` \u2014 {spec.get('title', '')}", ""]
    out.append(f"- **Claim** (seed {spec.get('seed', '?')}). {spec.get('claim', '(none)')}")
    out.append("- **What runs.** " + "; ".join(runs_text(spec)) + ".")
    out.append(f"- **Data.** {data_text(spec)}.")
    axes = spec.get("axes") or {}
    if axes:
        out.append("- **Axes.** " + "; ".join(f"`{k}`: {per_preset(v)}" for k, v in axes.items()) + ".")
    reps = spec.get("reps") or {}
    out.append("- **Repetitions.** " + ", ".join(f"{p} {reps[p]}" for p in PRESETS if p in reps) + ".")
    if spec.get("gpu_time_note"):
        est = spec.get("gpu_estimate_s")
        est = f" (Estimated: {est} s over its backends, until a run is checked in.)" if est is not None else ""
        out.append(f"- **Time at the gpu preset.** {spec['gpu_time_note']}{est}")
    out.append(f"- **Verdict rule.** {spec.get('verdict_rule', '(none)')}")
    out.append(f"- **Machine-readable rule** (`scripts/verdict_rules/`): `{json.dumps(spec.get('verdict'))}`")
    out.append(f"- **Spec.** [`{spec['_file']}`](../{spec['_file']}); run it: "
               f"`harness run --experiment {sid}`.")
    out.append("")
    return out


def anchor(sid) -> str:
    return "fig-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in str(sid))


def rule_kinds(verdict) -> list[str]:
    if not isinstance(verdict, dict):
        return []
    kinds = [str(verdict.get("kind"))]
    for sub in verdict.get("rules") or []:
        kinds += rule_kinds(sub)
    return kinds


def catalogue(specs: list[dict]) -> str:
    lines = ["# Figure catalogue", "",
             "<!-- Generated by `python3 scripts/figures.py` from paper/experiments/*.json: do not edit by hand; "
             "the CTest scripts.figures checks it is up to date. -->", "",
             f"Every figure and table the harness reproduces ({len(specs)} experiments): the claim of the paper, "
             "what runs, and the rule that decides whether the claim holds on a device. Each row is one spec in "
             "`paper/experiments/`, embedded in the binary (`harness list` shows them, `harness run --experiment "
             "ID` runs one and prints its verdict). The measured results and their verdicts on GPUs are in "
             "[RESULTS.md](RESULTS.md).", "",
             "| experiment | title | rule |", "| --- | --- | --- |"]
    for s in specs:
        kinds = ", ".join(dict.fromkeys(rule_kinds(s.get("verdict"))))
        lines.append(f"| [`{s.get('id')}`](#{anchor(s.get('id'))}) | {cell(s.get('title', ''))} | {cell(kinds)} |")
    lines.append("")
    groups: dict[str, list[dict]] = {}
    for s in specs:
        groups.setdefault(str(s.get("id")).split(".")[0], []).append(s)
    for prefix, members in groups.items():
        lines += [f"## {FAMILY_OF_PREFIX.get(prefix, prefix)}", ""]
        for s in members:
            lines += section(s)
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Write paper/FIGURES.md from paper/experiments/*.json.")
    ap.add_argument("--check", action="store_true", help="exit 1 if paper/FIGURES.md is not up to date")
    ap.add_argument("--stdout", action="store_true", help="print the catalogue instead of writing it")
    ap.add_argument("--specs", default=SPECS, help=argparse.SUPPRESS)
    ap.add_argument("--out", default=OUT, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    text = catalogue(load_specs(args.specs))
    if args.stdout:
        sys.stdout.write(text)
        return 0
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print(f"figures.py: {os.path.relpath(args.out, ROOT)} is out of date with paper/experiments/*.json; "
                  "run: python3 scripts/figures.py", file=sys.stderr)
            return 1
        print(f"figures.py: {os.path.relpath(args.out, ROOT)} is up to date ({text.count('### ')} experiments)")
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"figures.py: wrote {os.path.relpath(args.out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
