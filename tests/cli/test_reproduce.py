#!/usr/bin/env python3
"""`harness reproduce` over a suite, as a user runs it: resuming (a second run
skips what is complete, --force reruns, an incomplete document is rerun),
--report-only, --shard I/N on several "machines" merged by `harness report`,
and the usage errors of those options.

Tiny cpu-only experiments written to a temporary folder keep it fast.
Needs HARNESS_BIN (the binary) and HARNESS_SOURCE_DIR (the repository)."""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

BIN = os.environ["HARNESS_BIN"]
SRC = os.environ["HARNESS_SOURCE_DIR"]
TMP = tempfile.mkdtemp(prefix="harness-reproduce-test-")
DATA = os.path.join(TMP, "data")
ENV = dict(os.environ, HARNESS_DATA_DIR=DATA)
FAST = ["--no-ceilings", "--reps", "1", "--preset", "ci", "--data-dir", DATA]
SKIP = "reproduce: {} complete for this build, preset and devices: skipped (--force reruns it)"


def harness(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=ENV, timeout=600)


def spec(exp_id, size):
    """A spec shaped like paper/experiments/mars.wordcount-smoke.json, on the cpu runtime only."""
    path = os.path.join(TMP, "specs", exp_id + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({
            "id": exp_id,
            "title": f"Word count on the CPU runtime ({size})",
            "seed": "S1",
            "claim": "The CPU runtime's word counts equal the reference's.",
            "verdict_rule": "holds if every run validates",
            "verdict": {"kind": "all_valid"},
            "plot": {"kind": "bars"},
            "dataset": "text-zipf",
            "runs": [{"framework": "cpu", "variants": ["default"], "apps": ["wordcount"]}],
            "sizes": {"ci": [size], "gpu": [size], "paper": [size]},
            "reps": {"ci": 1, "gpu": 1, "paper": 1},
        }, f)
    return path


SPECS = {i: spec(i, s) for i, s in (("t.alpha", "64KiB"), ("t.beta", "96KiB"), ("t.gamma", "128KiB"))}
IDS = sorted(SPECS)
# The same point as t.alpha's, in another experiment (not in IDS).
SPECS["t.alpha-again"] = spec("t.alpha-again", "64KiB")


def experiments(*ids):
    return ",".join(SPECS[i] for i in ids)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def ran(stderr):
    """Experiment ids that were run (the runner prints `experiment <id> (preset ...`)."""
    return [l.split()[1] for l in stderr.splitlines() if l.startswith("experiment ")]


def verdict_set(out_dir):
    with open(os.path.join(out_dir, "verdicts.json")) as f:
        return {(v["experiment"], v["backend"], v["verdict"]) for v in json.load(f)}


class Resume(unittest.TestCase):
    def reproduce(self, out, *extra, ids=IDS):
        r = harness("reproduce", "--experiments", experiments(*ids), "--out-dir", out, *FAST, *extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def test_a_resumed_run_reuses_the_points_of_the_documents_it_keeps(self):
        out = os.path.join(TMP, "resume-reuse")
        self.reproduce(out, ids=("t.alpha",))
        with open(os.path.join(out, "results", "t.alpha.json")) as f:
            alpha = json.load(f)["points"][0]
        self.assertTrue(alpha["identity"].startswith("xxh64:"), alpha.get("identity"))
        # Interrupted after t.alpha, resumed: t.alpha is kept and its point
        # serves t.alpha-again as in one uninterrupted run.
        r = self.reproduce(out, ids=("t.alpha", "t.alpha-again"))
        self.assertEqual(ran(r.stderr), ["t.alpha-again"])
        with open(os.path.join(out, "results", "t.alpha-again.json")) as f:
            again = json.load(f)["points"][0]
        self.assertEqual(again.get("reused_from"), "t.alpha")
        self.assertEqual(again["identity"], alpha["identity"])
        self.assertEqual(again["repetitions"], alpha["repetitions"])
        # --no-reuse measures it.
        r = self.reproduce(out, "--no-reuse", "--force", ids=("t.alpha-again",))
        with open(os.path.join(out, "results", "t.alpha-again.json")) as f:
            self.assertNotIn("reused_from", json.load(f)["points"][0])

    def test_second_run_skips_and_force_reruns(self):
        out = os.path.join(TMP, "resume")
        first = self.reproduce(out, ids=("t.alpha", "t.beta"))
        self.assertEqual(ran(first.stderr), ["t.alpha", "t.beta"])
        files = {i: os.path.join(out, "results", i + ".json") for i in ("t.alpha", "t.beta")}
        before = {i: read(p) for i, p in files.items()}
        for i, p in files.items():
            doc = json.loads(before[i])
            self.assertTrue(doc["complete"])
            self.assertEqual(doc["experiment"]["id"], i)
            self.assertEqual([p["status"] for p in doc["points"]], ["ok"])
        report = read(os.path.join(out, "report.md")).decode()
        self.assertIn("t.alpha", report)
        self.assertIn("t.beta", report)

        second = self.reproduce(out, ids=("t.alpha", "t.beta"))
        self.assertEqual(ran(second.stderr), [])
        for i in files:
            self.assertIn(SKIP.format(i), second.stderr.splitlines())
        self.assertEqual({i: read(p) for i, p in files.items()}, before)  # byte-identical
        self.assertTrue(os.path.exists(os.path.join(out, "report.md")))

        mtimes = {i: os.stat(p).st_mtime_ns for i, p in files.items()}
        forced = self.reproduce(out, "--force", ids=("t.alpha", "t.beta"))
        self.assertEqual(ran(forced.stderr), ["t.alpha", "t.beta"])
        self.assertNotIn("complete for this build", forced.stderr)
        for i, p in files.items():
            self.assertNotEqual(os.stat(p).st_mtime_ns, mtimes[i])
            doc = json.loads(read(p))
            self.assertTrue(doc["complete"])
            self.assertEqual(doc["experiment"]["id"], i)

    def test_incomplete_or_mismatched_document_is_rerun(self):
        out = os.path.join(TMP, "incomplete")
        self.reproduce(out, ids=("t.alpha", "t.beta"))
        path = os.path.join(out, "results", "t.alpha.json")
        doc = json.loads(read(path))
        doc["complete"] = False
        with open(path, "w") as f:
            json.dump(doc, f)
        beta = os.path.join(out, "results", "t.beta.json")
        doc = json.loads(read(beta))
        doc["environment"]["git_sha"] = "0000deadbeef"
        with open(beta, "w") as f:
            json.dump(doc, f)
        r = self.reproduce(out, ids=("t.alpha", "t.beta"))
        self.assertEqual(ran(r.stderr), ["t.alpha", "t.beta"])
        lines = r.stderr.splitlines()
        self.assertTrue(any(l.startswith("reproduce: t.alpha runs again: the results document is incomplete")
                            for l in lines), r.stderr)
        self.assertTrue(any(l.startswith("reproduce: t.beta runs again: made by another build (git_sha 0000deadbeef")
                            for l in lines), r.stderr)
        self.assertTrue(json.loads(read(path))["complete"])
        self.assertNotEqual(json.loads(read(beta))["environment"]["git_sha"], "0000deadbeef")
        # Another preset is another run, too.
        r = harness("reproduce", "--experiments", experiments("t.alpha"), "--out-dir", out, "--no-ceilings",
                    "--reps", "1", "--preset", "gpu", "--data-dir", DATA)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("reproduce: t.alpha runs again: made at preset ci, not gpu", r.stderr)

    def test_backend_restriction_has_its_own_file(self):
        out = os.path.join(TMP, "backend")
        self.reproduce(out, ids=("t.alpha",))
        r = self.reproduce(out, "--backend", "cpu", ids=("t.alpha",))
        self.assertEqual(ran(r.stderr), ["t.alpha"])
        self.assertEqual(sorted(os.listdir(os.path.join(out, "results"))), ["t.alpha.json", "t.alpha@cpu.json"])
        r = self.reproduce(out, "--backend", "cpu", ids=("t.alpha",))
        self.assertIn(SKIP.format("t.alpha"), r.stderr)
        self.assertEqual(ran(r.stderr), [])

    def test_report_only_runs_nothing(self):
        out = os.path.join(TMP, "report-only")
        self.reproduce(out, ids=("t.alpha",))
        result = os.path.join(out, "results", "t.alpha.json")
        mtime = os.stat(result).st_mtime_ns
        content = read(result)
        os.remove(os.path.join(out, "report.md"))
        os.remove(os.path.join(out, "verdicts.json"))
        r = harness("reproduce", "--report-only", "--out-dir", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(ran(r.stderr), [])
        self.assertIn("t.alpha", read(os.path.join(out, "report.md")).decode())
        self.assertEqual(verdict_set(out), {("t.alpha", "cpu", "holds")})
        self.assertEqual(os.stat(result).st_mtime_ns, mtime)
        self.assertEqual(read(result), content)


class Shards(unittest.TestCase):
    def test_shards_merged_equal_one_full_run(self):
        full = os.path.join(TMP, "full")
        r = harness("reproduce", "--experiments", experiments(*IDS), "--out-dir", full, *FAST)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(ran(r.stderr), IDS)

        # Round-robin over the --experiments order: shard 1 gets the 1st and 3rd.
        order = ["t.gamma", "t.alpha", "t.beta"]
        expect = {1: ["t.gamma", "t.beta"], 2: ["t.alpha"]}
        shard_dirs = []
        for i in (1, 2):
            d = os.path.join(TMP, "machines", f"shard-{i}")
            shard_dirs.append(d)
            r = harness("reproduce", "--experiments", experiments(*order), "--shard", f"{i}/2",
                        "--out-dir", d, *FAST)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(ran(r.stderr), expect[i])
            self.assertEqual(sorted(os.listdir(os.path.join(d, "results"))), sorted(e + ".json" for e in expect[i]))
            self.assertEqual({v[0] for v in verdict_set(d)}, set(expect[i]))  # its own results only

        merged = os.path.join(TMP, "merged")
        # One shard by out-dir, the other by its results/ folder.
        r = harness("report", "--out-dir", merged, shard_dirs[0], os.path.join(shard_dirs[1], "results"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(verdict_set(merged), verdict_set(full))
        self.assertEqual({v[0] for v in verdict_set(merged)}, set(IDS))
        report = read(os.path.join(merged, "report.md")).decode()
        for i in IDS:
            self.assertIn(i, report)
        # Files given one by one merge the same way.
        files = sorted(glob.glob(os.path.join(TMP, "machines", "*", "results", "*.json")))
        self.assertEqual(len(files), 3)
        merged2 = os.path.join(TMP, "merged2")
        r = harness("report", "--out-dir", merged2, *files)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(verdict_set(merged2), verdict_set(full))

    def test_empty_shard_exits_0(self):
        d = os.path.join(TMP, "empty-shard")
        r = harness("reproduce", "--experiments", experiments("t.alpha"), "--shard", "2/2", "--out-dir", d, *FAST)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("shard 2/2 has no experiment", r.stderr)
        self.assertEqual(ran(r.stderr), [])
        self.assertFalse(os.path.exists(os.path.join(d, "report.md")))


class UsageErrors(unittest.TestCase):
    def expect(self, fragment, *args):
        r = harness(*args)
        self.assertEqual(r.returncode, 2, f"{args}: {r.stderr}")
        lines = [l for l in r.stderr.splitlines() if l.startswith("harness:")]
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(fragment, lines[0])
        self.assertEqual(ran(r.stderr), [])

    def test_bad_shards(self):
        out = os.path.join(TMP, "bad-shard")
        for bad in ("0/2", "3/2", "x", "1/0", "1/", "/2", "-1/2", "1/2/3", "1.5/2", ""):
            self.expect(f"--shard needs I/N with 1 <= I <= N, not '{bad}'", "reproduce", "--experiments",
                        experiments("t.alpha"), "--shard", bad, "--out-dir", out, *FAST)
        self.assertFalse(os.path.exists(os.path.join(out, "results")))

    def test_bad_report(self):
        empty = os.path.join(TMP, "no-results")
        os.makedirs(os.path.join(empty, "results"), exist_ok=True)
        with open(os.path.join(empty, "results", "notes.json"), "w") as f:
            json.dump({"not": "a results document"}, f)
        out = os.path.join(TMP, "bad-report")
        self.expect("report needs results to read", "report", "--out-dir", out)
        self.expect("'" + empty + "' holds no results documents", "report", "--out-dir", out, empty)
        self.expect("does not exist", "report", "--out-dir", out, os.path.join(TMP, "nowhere"))
        self.expect("is not a results document", "report", "--out-dir", out,
                    os.path.join(empty, "results", "notes.json"))
        self.expect("missing option --out-dir", "report", empty)
        self.assertFalse(os.path.exists(out))

    def test_report_only_without_results(self):
        d = os.path.join(TMP, "nothing-here")
        self.expect("--report-only: no results documents in " + d, "reproduce", "--report-only", "--out-dir", d)
        self.expect("--report-only runs nothing: drop --shard", "reproduce", "--report-only", "--shard", "1/2",
                    "--out-dir", d)
        self.expect("--report-only runs nothing: drop --no-reuse", "reproduce", "--report-only", "--no-reuse",
                    "--out-dir", d)


if __name__ == "__main__":
    try:
        unittest.main(verbosity=2)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
