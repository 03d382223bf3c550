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
        self.expect(2, "unknown preset 'huge' (known: ci, gpu, full, paper)", "run", "--experiment",
                    "mars.wordcount-smoke", "--preset", "huge", "--out", os.path.join(TMP, "x.json"))

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
        # Every missing field in one message, not one run per field.
        r = harness("run", "--experiment", bad)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("missing fields 'title', 'seed', 'claim', 'verdict_rule', 'verdict', 'dataset', "
                      "'runs', 'reps', 'sizes'", r.stderr)
        self.assertIn("harness new-spec", r.stderr)
        with open(bad, "w") as f:
            json.dump({"id": "x", "title": "t", "seed": "s", "claim": "c", "verdict_rule": "r",
                       "verdict": {"kind": "all_valid"}, "dataset": "none", "reps": {"ci": 1},
                       "runs": [{"framework": "cpu"}]}, f)
        self.expect(2, "missing fields 'runs[0].variants', 'runs[0].apps'", "run", "--experiment", bad)
        with open(bad, "w") as f:
            json.dump({"id": "x", "title": "t", "seed": "s", "claim": "c", "verdict_rule": "r",
                       "verdict": {"kind": "all_valid"}, "dataset": "text-zipf", "reps": {"ci": 1},
                       "runs": []}, f)
        self.expect(2, "missing field 'sizes' (a spec needs", "run", "--experiment", bad)

    def test_new_spec_has_every_required_field_and_runs(self):
        r = harness("new-spec", "--id", "my.radix", "--framework", "mars", "--variants", "default,radix")
        self.assertEqual(r.returncode, 0, r.stderr)
        spec = json.loads(r.stdout)
        for field in ("id", "title", "seed", "claim", "verdict_rule", "verdict", "dataset", "runs", "sizes",
                      "reps"):
            self.assertIn(field, spec)
        self.assertEqual(spec["verdict"]["kind"], "faster")
        self.assertEqual(spec["verdict"]["candidate"], {"framework": "mars", "variant": "radix"})
        self.assertEqual(spec["runs"][0]["variants"], ["default", "radix"])
        self.assertIn("interval", spec["verdict_rule"])
        path = os.path.join(TMP, "new-spec.json")
        r = harness("new-spec", "--framework", "cpu", "--app", "wordcount", "--out", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(path) as f:
            self.assertEqual(json.load(f)["verdict"], {"kind": "all_valid"})
        out = os.path.join(TMP, "new-spec-run.json")
        r = harness("run", "--experiment", path, "--reps", "1", "--no-ceilings", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("verdict my.experiment on cpu:0", r.stdout)  # the verdict ends the run
        self.expect(2, "unknown variant 'nope'", "new-spec", "--variants", "default,nope")
        self.expect(2, "mars/default does not run app 'segsum'", "new-spec", "--framework", "mars", "--app",
                    "segsum")

    def test_sizes_have_one_spelling_in_keys(self):
        keys = []
        for size in ("64KiB", "64 KiB", "65536", "64kib"):
            out = os.path.join(TMP, "size.json")
            r = harness("run", "--framework", "cpu", "--app", "wordcount", "--dataset", "text-zipf",
                        "--size", size, "--backend", "cpu", "--reps", "1", "--no-ceilings", "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                keys.append(json.load(f)["points"][0]["key"])
        self.assertEqual(set(keys), {"cpu/default/wordcount/cpu:0/text-zipf/64KiB"})
        self.expect(2, "invalid size '1 XB'", "run", "--framework", "cpu", "--app", "wordcount",
                    "--dataset", "text-zipf", "--size", "1 XB", "--backend", "cpu")

    def test_variant_default_names_the_choices(self):
        _, compiled = backends()
        if "opencl" in compiled:
            self.expect(2, "framework 'atomics' has no variant 'default' and several of its variants run app "
                        "'path-copy' on opencl: give --variant (one of: copy-plain (opencl, cuda), copy-never",
                        "run", "--framework", "atomics", "--app", "path-copy", "--backend", "opencl")
        # reduction has no 'default': the one variant that runs the app on the backend is taken
        r = harness("run", "--framework", "reduction", "--app", "segsum", "--dataset", "uniform-f32",
                    "--size", "64KiB", "--backend", "cpu", "--reps", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("reduction/cpu/segsum", r.stderr)

    def test_run_failures_exit_1(self):
        # A missing input is the caller's mistake: a usage error, before anything runs.
        self.expect(2, "cannot read input file '/nonexistent/input.txt'", "run", "--framework", "cpu",
                    "--app", "wordcount", "--input", "/nonexistent/input.txt", "--backend", "cpu")
        self.expect(2, "it is a directory", "run", "--framework", "cpu", "--app", "wordcount",
                    "--input", TMP, "--backend", "cpu")
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
        with open(docs[0]) as f:
            doc = json.load(f)
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


def run_spec(name, variants, reps=3, backend="cpu", framework="cpu", extra=None):
    """A tiny word-count spec of `variants`, run; returns (result path, completed process)."""
    spec = os.path.join(TMP, name + ".spec.json")
    doc = {"id": name, "title": name, "seed": "test", "claim": "c", "verdict_rule": "r",
           "verdict": {"kind": "all_valid"}, "dataset": "text-zipf",
           "runs": [{"framework": framework, "variants": variants, "apps": ["wordcount"]}],
           "sizes": {"ci": ["64KiB"], "gpu": ["64KiB"], "paper": ["64KiB"]},
           "reps": {"ci": reps, "gpu": reps, "paper": reps}}
    doc.update(extra or {})
    with open(spec, "w") as f:
        json.dump(doc, f)
    out = os.path.join(TMP, name + ".json")
    r = harness("run", "--experiment", spec, "--backend", backend, "--no-ceilings", "--out", out)
    return out, r


class CompareSets(unittest.TestCase):
    """harness compare of two variants (or any two labelled sets): across files and within one."""

    @classmethod
    def setUpClass(cls):
        present, _ = backends()
        if "opencl" not in present:
            raise unittest.SkipTest("no OpenCL device")
        cls.old, r = run_spec("cmp.old", ["default"], reps=5, backend="opencl", framework="mars")
        assert r.returncode == 0, r.stderr
        cls.new, r = run_spec("cmp.new", ["radix"], reps=5, backend="opencl", framework="mars")
        assert r.returncode == 0, r.stderr
        cls.both, r = run_spec("cmp.both", ["default", "radix"], reps=5, backend="opencl", framework="mars")
        assert r.returncode == 0, r.stderr

    def test_by_key_matches_nothing_and_names_the_nearest_keys(self):
        r = harness("compare", self.old, self.new)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("No point of A matches a point of B", r.stdout)
        self.assertIn("A mars/default/wordcount/opencl:0/text-zipf/64KiB", r.stdout)
        self.assertIn("B mars/radix/wordcount/opencl:0/text-zipf/64KiB", r.stdout)
        self.assertIn("differ in variant mars/default | mars/radix", r.stdout)
        self.assertIn("--by variant --a mars/default --b mars/radix", r.stdout)
        self.assertIn("harness: compare: no point of A matches", r.stderr)

    def assert_matched(self, r, n=1):
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(f"{n} matched point(s)", r.stdout)
        self.assertIn("*/wordcount/opencl:0/text-zipf/64KiB", r.stdout)
        row = [l for l in r.stdout.splitlines() if l.startswith("*/wordcount")][0]
        self.assertRegex(row, r"\[\d+\.\d\d, \d+\.\d\d\]")  # the 95% interval
        return row

    def test_two_files_by_variant(self):
        self.assert_matched(harness("compare", self.old, self.new, "--by", "variant"))  # one each: implied
        self.assert_matched(harness("compare", self.old, self.new, "--by", "variant", "--a", "mars/default",
                                    "--b", "radix"))

    def test_one_file_by_variant(self):
        r = harness("compare", self.both, "--by", "variant", "--a", "default", "--b", "mars/radix")
        self.assert_matched(r)
        self.assertIn("variant = mars/default", r.stdout)
        self.assertIn("variant = mars/radix", r.stdout)
        r = harness("compare", self.both, "--by", "variant", "--b", "radix")  # A: the other one
        self.assert_matched(r)

    def test_interval_is_the_verdict_rules(self):
        # compare's interval and the faster rule's come from the same bootstrap
        sys.path.insert(0, os.path.join(SRC, "scripts"))
        import noise
        with open(self.both) as f:
            doc = json.load(f)
        times = {p["variant"]: [rep["total_ms"] for rep in p["repetitions"]] for p in doc["points"]}
        lo, hi = noise.bootstrap_ratio_of_medians(times["radix"], times["default"])
        row = self.assert_matched(harness("compare", self.both, "--by", "variant", "--a", "default",
                                          "--b", "radix"))
        self.assertIn(f"[{lo:.2f}, {hi:.2f}]", row)

    def test_usage_errors(self):
        def expect(fragment, *args):
            r = harness("compare", *args)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn(fragment, r.stderr)
        expect("holds 2 values of variant (mars/default, mars/radix)", self.both, "--by", "variant")
        expect("no point of", self.both, "--by", "variant", "--a", "default", "--b", "sort")
        expect("--a and --b name values of --by", self.old, self.new, "--a", "default")
        expect("compare needs two result files", self.old)
        expect("no point of", self.both, "--by", "nosuchaxis")


class SkippedByBackend(unittest.TestCase):
    def test_variants_a_backend_cannot_run_are_skipped_with_the_reason(self):
        present, compiled = backends()
        if "opencl" not in present:
            self.skipTest("no OpenCL device")
        out = os.path.join(TMP, "fig5_1.json")
        r = harness("run", "--experiment", "thesis.fig5_1", "--backend", "opencl", "--reps", "1",
                    "--no-ceilings", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        skipped = [p for p in doc["points"] if p["status"] == "skipped"]
        self.assertEqual({p["variant"] for p in skipped}, {"scan-l1", "scan-nol1"})
        why = ("this run is restricted to --backend opencl" if "cuda" in compiled
               else "cuda is not compiled into this binary")
        for p in skipped:
            self.assertEqual(p["backend"], "cuda")
            self.assertIn("runs on cuda only: " + why, p["skip_reason"])
            self.assertEqual(p["validation"]["status"], "skipped")
        self.assertTrue(all(p["status"] == "ok" for p in doc["points"] if p["variant"] == "scan-line"))
        # The verdict, printed at the end of the run, says why the rule did not run.
        self.assertIn("verdict thesis.fig5_1 on cuda:0: not run", r.stdout)
        self.assertIn("runs on cuda only", r.stdout)
        check = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "check_results.py"), out],
                               capture_output=True, text=True)
        if check.returncode != 3:  # 3: jsonschema not installed
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
        # and the report lists them with the reason
        report = os.path.join(TMP, "fig5_1-report")
        r = harness("report", "--out-dir", report, out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(report, "report.md")) as f:
            text = f.read()
        self.assertIn("memory/scan-l1 runs on cuda only", text)

    def test_a_cpu_only_run_records_gpu_variants_as_skipped(self):
        out, r = run_spec("skip.cpu", ["default"], reps=1, framework="mars")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual([p["status"] for p in doc["points"]], ["skipped"])
        self.assertIn("this run is restricted to --backend cpu", doc["points"][0]["skip_reason"])
        self.assertIsNone(doc["points"][0]["dataset"]["checksum"])  # no data was made for it


if __name__ == "__main__":
    unittest.main(verbosity=2)
