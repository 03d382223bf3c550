#!/usr/bin/env python3
"""End to end as a user runs a thesis workload: for every workload folder with
examples/ (frameworks/workloads/<app>/examples):
- `harness run --framework cpu-mt --app APP --input examples/small.* --dump-output`
  prints exactly examples/small.expected (an answer derived by hand), and
  scripts/<app>_check.py accepts it;
- the same on a generated input (the app's default dataset, 1 MiB), checked by
  the script;
- examples/malformed.* (when present) fails with exit 1 and a message holding
  the text of examples/malformed.error.
Parameters for an example: examples/small.params, one name=value a line (given
to harness as --param and to the check script as arguments). Workloads that
share a folder's examples (mastercard, mastercard-indexed) list their names in
examples/apps; otherwise the app is named after the folder. Every workload
that `harness list` names must have examples that run it."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HARNESS = os.environ["HARNESS_BIN"]
SOURCE = os.environ["HARNESS_SOURCE_DIR"]


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def default_datasets():
    out = run([HARNESS, "list"]).stdout
    found = {}
    for m in re.finditer(r"^\s+(\S+)\s+\(workload, dataset (\S+?),", out, re.M):
        found[m.group(1)] = m.group(2)
    return found


# Workloads that share a MapReduce app's check script (the same dump format).
SHARED_CHECKS = {"word-count": "wordcount", "matrix-multiply": "matrixmult"}


def check_script(app):
    # page-view-count and inverted-index have their own checks
    # (page_view_count_check.py, inverted_index_check.py), found before the
    # MapReduce apps' by the underscored name.
    for name in (SHARED_CHECKS.get(app, app), app.replace("-", "_"), app.replace("-", ""),
                 app.replace("-indexed", "")):
        path = os.path.join(SOURCE, "scripts", f"{name}_check.py")
        if os.path.exists(path):
            return path
    return None


def main():
    datasets = default_datasets()
    failures = []
    folders = sorted(glob.glob(os.path.join(SOURCE, "frameworks/workloads/*/examples")))
    if not folders:
        print("no workload examples found")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HARNESS_DATA_DIR=os.environ.get("HARNESS_DATA_DIR", os.path.join(tmp, "data")))
        runs = []
        for folder in folders:
            names_file = os.path.join(folder, "apps")
            if os.path.exists(names_file):
                runs += [(folder, name) for name in open(names_file).read().split()]
            else:
                runs.append((folder, os.path.basename(os.path.dirname(folder)).replace("_", "-")))
        for app in sorted(set(datasets) - {app for _, app in runs}):
            failures.append(f"{app}: no frameworks/workloads/*/examples runs it")
        for folder, app in runs:
            if app not in datasets:
                failures.append(f"{folder}: no workload named {app}")
                continue
            script = check_script(app)
            if not script:
                failures.append(f"{app}: no scripts/{app}_check.py")
                continue
            params = []
            pfile = os.path.join(folder, "small.params")
            if os.path.exists(pfile):
                params = [l.strip() for l in open(pfile) if l.strip()]
            param_args = [a for p in params for a in ("--param", p)]
            inputs = [f for f in glob.glob(os.path.join(folder, "small.*"))
                      if not f.endswith((".expected", ".params"))]
            if len(inputs) != 1:
                failures.append(f"{app}: expected one examples/small.<ext> input, found {inputs}")
                continue
            cases = [("hand-written", ["--input", inputs[0]], inputs[0])]
            cases.append(("generated", ["--dataset", datasets[app], "--size", "1MiB"], None))
            for label, input_args, input_path in cases:
                dump = os.path.join(tmp, f"{app}-{label}.dump")
                doc = os.path.join(tmp, f"{app}-{label}.json")
                r = run([HARNESS, "run", "--framework", "cpu-mt", "--app", app, "--backend", "cpu",
                         "--reps", "1", *input_args, *param_args, "--dump-output", dump, "--out", doc,
                         "--no-ceilings"], env=env)
                if r.returncode != 0 or "validated" not in r.stderr:
                    failures.append(f"{app} {label}: harness exit {r.returncode}: {r.stderr.strip()[-400:]}")
                    continue
                if input_path is None:
                    # The generated file the point read (its name holds the
                    # dataset's parameters, if it has any).
                    with open(doc) as f:
                        input_path = json.load(f)["points"][0]["dataset"]["path"]
                    if not input_path or not os.path.exists(input_path):
                        failures.append(f"{app} generated: the results name no dataset file ({input_path})")
                        continue
                else:
                    expected = open(os.path.join(folder, "small.expected"), "rb").read()
                    if open(dump, "rb").read() != expected:
                        failures.append(f"{app}: the dump of {os.path.basename(input_path)} differs from small.expected")
                c = run([sys.executable, script, input_path, dump, *params])
                if c.returncode != 0:
                    failures.append(f"{app} {label}: {os.path.basename(script)}: {(c.stdout + c.stderr).strip()[-400:]}")
                else:
                    print(f"{app} {label}: {c.stdout.strip()}")
            for bad in glob.glob(os.path.join(folder, "malformed.*")):
                if bad.endswith(".error"):
                    continue
                want = open(os.path.splitext(bad)[0] + ".error").read().strip()
                r = run([HARNESS, "run", "--framework", "cpu-mt", "--app", app, "--backend", "cpu",
                         "--reps", "1", "--input", bad, *param_args], env=env)
                if r.returncode != 1 or want not in r.stderr:
                    failures.append(f"{app} {os.path.basename(bad)}: exit {r.returncode} (expected 1), "
                                    f"stderr lacks {want!r}: {r.stderr.strip()[-300:]}")
                else:
                    print(f"{app} {os.path.basename(bad)}: exit 1, '{want}'")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
