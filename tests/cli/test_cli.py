#!/usr/bin/env python3
"""The harness CLI end to end: exit status and a one-line cause for every bad
input, word counts equal to an independent script, result documents that pass
the schema, and `harness compare` on two of them.

Needs HARNESS_BIN (the binary) and HARNESS_SOURCE_DIR (the repository)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BIN = os.environ["HARNESS_BIN"]
SRC = os.environ["HARNESS_SOURCE_DIR"]
TMP = tempfile.mkdtemp(prefix="harness-cli-test-")
ENV = dict(os.environ, HARNESS_DATA_DIR=os.path.join(TMP, "data"))


def harness(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=ENV, timeout=600)


def backends():
    env = json.loads(harness("env", "--json").stdout)
    return {d["backend"] for d in env["devices"]}, set(env["backends_compiled"])


class Errors(unittest.TestCase):
    def expect(self, rc, fragment, *args):
        r = harness(*args)
        self.assertEqual(r.returncode, rc, f"{args}: {r.stderr}")
        lines = [l for l in r.stderr.splitlines() if l.startswith("harness:")]
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(fragment, lines[0])

    def test_usage_errors_exit_2(self):
        text = os.path.join(SRC, "README.md")
        self.expect(2, "unknown command", "frobnicate")
        self.expect(2, "unknown experiment 'nope'", "run", "--experiment", "nope")
        self.expect(2, "unknown framework 'nope'", "run", "--framework", "nope", "--app", "wordcount",
                    "--input", text, "--backend", "cpu")
        self.expect(2, "unknown variant 'nope'", "run", "--framework", "mars", "--variant", "nope",
                    "--app", "wordcount", "--input", text, "--backend", "opencl")
        self.expect(2, "unknown app 'nope'", "run", "--framework", "cpu", "--app", "nope",
                    "--input", text, "--backend", "cpu")
        self.expect(2, "unknown backend 'nope'", "run", "--framework", "cpu", "--app", "wordcount",
                    "--input", text, "--backend", "nope")
        self.expect(2, "unknown option --bogus", "run", "--bogus", "1")
        self.expect(2, "does not run on backend cpu", "run", "--framework", "mars", "--app", "wordcount",
                    "--input", text, "--backend", "cpu")
        self.expect(2, "unknown preset", "run", "--experiment", "mars.wordcount-smoke", "--preset", "huge",
                    "--out", os.path.join(TMP, "x.json"))

    def test_bad_parameter_values_exit_2_naming_the_parameter(self):
        text = os.path.join(SRC, "README.md")
        single = ["run", "--framework", "mars", "--app", "wordcount", "--input", text,
                  "--backend", "opencl"]
        for param, takes in [("group_size=48", "group_size takes a power of two"),
                             ("group_size=2x", "group_size takes a power of two"),
                             ("groups=-1", "groups takes a non-negative integer"),
                             ("groups=1.5", "groups takes a non-negative integer"),
                             ("sort=maybe", "sort takes a boolean"),
                             ("hash_keys=", "hash_keys takes a boolean")]:
            self.expect(2, "parameter " + param.split("=")[0] + "=", *single, "--param", param)
            self.expect(2, takes, *single, "--param", param)
        self.expect(2, "has no parameter 'nope'", *single, "--param", "nope=1")
        self.expect(2, "gpus takes an integer from 1 to 64", "run", "--framework", "streamgraph",
                    "--variant", "gpu-multi", "--app", "sg-dct", "--dataset", "uniform-f32",
                    "--size", "4KiB", "--backend", "opencl", "--param", "gpus=2x")
        self.expect(2, "k takes a non-negative integer from 1 to 999999", "run", "--framework",
                    "cpu", "--app", "kmeans", "--dataset", "points-f32", "--size", "64KiB",
                    "--backend", "cpu", "--param", "k=0")
        # An axis value is checked against its declaration before anything runs.
        spec = os.path.join(TMP, "bad-axis.json")
        with open(os.path.join(SRC, "paper", "experiments", "mars.wordcount-smoke.json")) as f:
            doc = json.load(f)
        doc["axes"] = {"group_size": [64, 96]}
        with open(spec, "w") as f:
            json.dump(doc, f)
        self.expect(2, "group_size=96: group_size takes a power of two", "run", "--experiment", spec,
                    "--out", os.path.join(TMP, "bad-axis-out.json"))
        self.assertFalse(os.path.exists(os.path.join(TMP, "bad-axis-out.json")))

    def test_apps_without_input(self):
        # A microbenchmark's point loads no dataset: no --input, no --dataset.
        present, _ = backends()
        spec = os.path.join(TMP, "none.json")
        with open(os.path.join(SRC, "paper", "experiments", "mars.wordcount-smoke.json")) as f:
            doc = json.load(f)
        doc["dataset"] = "none"
        del doc["sizes"]
        with open(spec, "w") as f:
            json.dump(doc, f)
        self.expect(2, "app 'wordcount' reads an input", "run", "--experiment", spec)
        self.expect(2, "app 'wordcount' reads an input", "run", "--framework", "cpu", "--app",
                    "wordcount", "--backend", "cpu")
        if "opencl" not in present:
            self.skipTest("no OpenCL device")
        out = os.path.join(TMP, "shared.json")
        r = harness("run", "--framework", "memory", "--variant", "shared", "--app", "shared-read",
                    "--backend", "opencl", "--reps", "1", "--param", "groups=2", "--param",
                    "steps=16", "--out", out, "--no-ceilings")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            point = json.load(f)["points"][0]
        self.assertEqual(point["status"], "ok")
        self.assertEqual(point["dataset"]["size_bytes"], 0)
        self.assertIsNone(point["dataset"]["path"])
        self.assertTrue(point["key"].endswith("/none/-/groups=2/steps=16") or "/none/-" in point["key"],
                        point["key"])

    def test_list_shows_declared_parameters(self):
        r = harness("list")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        group = [l.split() for l in lines if l.strip().startswith("group_size ")]
        self.assertIn(["group_size", "unsigned", "=128", "2^k", "in", "[1,", "1024]",
                       "work-items", "per", "work-group"], group)
        self.assertTrue(any(l.split()[:3] == ["cpu_share", "float", "=auto"] for l in lines))
        self.assertTrue(any(l.split()[:3] == ["k", "unsigned", "=16"] for l in lines))

    def test_malformed_spec_exits_2(self):
        bad = os.path.join(TMP, "bad.json")
        with open(bad, "w") as f:
            f.write('{"id": "broken", "title": ')
        self.expect(2, "malformed experiment spec", "run", "--experiment", bad)
        with open(bad, "w") as f:
            json.dump({"id": "x"}, f)
        self.expect(2, "missing field 'title'", "run", "--experiment", bad)

    def test_run_failures_exit_1(self):
        self.expect(1, "cannot read input file '/nonexistent/input.txt'", "run", "--framework", "cpu",
                    "--app", "wordcount", "--input", "/nonexistent/input.txt", "--backend", "cpu")
        self.expect(1, "cannot write output to '/nonexistent/out.tsv'", "run", "--framework", "cpu",
                    "--app", "wordcount", "--input", os.path.join(SRC, "README.md"), "--backend", "cpu",
                    "--dump-output", "/nonexistent/out.tsv")
        self.expect(1, "cannot write results to '/nonexistent/r.json'", "run", "--experiment",
                    "mars.wordcount-smoke", "--out", "/nonexistent/r.json")

    def test_gpu_memory_budget(self):
        present, _ = backends()
        self.expect(2, "option --gpu-memory-budget: invalid size '12XB'", "run", "--experiment",
                    "mars.wordcount-smoke", "--gpu-memory-budget", "12XB")
        if "opencl" not in present:
            self.skipTest("no OpenCL device")
        # Mars' buffers for 256 KiB of text do not fit 64 KiB of device memory:
        # the points fail with the budget named, the document records it.
        out = os.path.join(TMP, "budget.json")
        r = harness("run", "--experiment", "mars.wordcount-smoke", "--backend", "opencl",
                    "--gpu-memory-budget", "64KiB", "--out", out, "--no-ceilings")
        self.assertEqual(r.returncode, 1, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(doc["experiment"]["gpu_memory_budget_bytes"], 65536)
        gpu = [p for p in doc["points"] if p["backend"] == "opencl"]
        self.assertTrue(gpu)
        for p in gpu:
            self.assertEqual(p["status"], "error", p["key"])
            self.assertIn("memory budget of 65536 bytes", p["error"])
        # The cpu baseline of the same experiment is not limited.
        self.assertTrue(all(p["status"] == "ok" for p in doc["points"] if p["backend"] == "cpu"))

    def test_backend_without_device(self):
        present, compiled = backends()
        if "cuda" in present:
            self.skipTest("this machine has a CUDA device")
        args = ("run", "--framework", "mars", "--app", "wordcount", "--input", os.path.join(SRC, "README.md"),
                "--backend", "cuda")
        if "cuda" in compiled:
            self.expect(1, "no cuda device", *args)
        else:
            self.expect(2, "not compiled into this binary", *args)


class Results(unittest.TestCase):
    def test_word_counts_equal_an_independent_count(self):
        present, _ = backends()
        text = os.path.join(TMP, "english.txt")
        with open(text, "wb") as f:  # real English prose: the project's own docs and any licenses here
            for folder in (SRC, os.path.join(SRC, "results"), "/usr/share/common-licenses"):
                for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                    path = os.path.join(folder, name)
                    if os.path.isfile(path) and (name.endswith(".md") or folder.endswith("licenses")):
                        with open(path, "rb") as g:
                            f.write(g.read())
        # coproc has one variant, which --variant's default names
        runs = [("cpu", "cpu")] + [(fw, b) for fw in ("mars", "coproc") for b in ("opencl", "cuda")
                                   if b in present]
        for framework, backend in runs:
            out = os.path.join(TMP, f"wc-{framework}-{backend}.tsv")
            r = harness("run", "--framework", framework, "--app", "wordcount", "--input", text,
                        "--backend", backend, "--reps", "1", "--dump-output", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            check = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "wordcount_check.py"), text, out],
                                   capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, f"{backend}: {check.stdout}")

    def test_documents_validate_and_compare(self):
        docs = []
        for n in (1, 2):
            path = os.path.join(TMP, f"smoke{n}.json")
            r = harness("run", "--experiment", "mars.wordcount-smoke", "--preset", "ci", "--reps", "3",
                        "--out", path)
            self.assertEqual(r.returncode, 0, r.stderr)
            docs.append(path)
        doc = json.load(open(docs[0]))
        self.assertTrue(doc["complete"])
        self.assertTrue(all(p["validation"]["status"] == "passed" for p in doc["points"]))
        r = harness("compare", *docs)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("cpu/default/wordcount", r.stdout)
        self.expect_compare_error()

    def test_documents_match_the_schema(self):
        path = os.path.join(TMP, "schema.json")
        r = harness("run", "--experiment", "mars.wordcount-smoke", "--preset", "ci", "--reps", "2", "--out", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        check = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "check_results.py"), path],
                               capture_output=True, text=True)
        if check.returncode == 3:
            self.skipTest(check.stdout + check.stderr)  # jsonschema not installed (no network here)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

    def expect_compare_error(self):
        r = harness("compare", "/nonexistent/a.json", "/nonexistent/b.json")
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
