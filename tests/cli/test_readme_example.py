#!/usr/bin/env python3
"""The README's "Adding a variant and comparing it" example, end to end, as
written: the spec and the commands are read from README.md (the blocks after
the `readme-example` markers), so the README cannot drift from what works.
Runs on the OpenCL device (PoCL in CI): the run must end with a verdict, and
each compare must match points and print their 95% interval.

Needs HARNESS_BIN (the binary) and HARNESS_SOURCE_DIR (the repository)."""
import json
import os
import re
import subprocess
import tempfile
import unittest

BIN = os.environ["HARNESS_BIN"]
SRC = os.environ["HARNESS_SOURCE_DIR"]
TMP = tempfile.mkdtemp(prefix="harness-readme-test-")
ENV = dict(os.environ, HARNESS_DATA_DIR=os.environ.get("HARNESS_DATA_DIR", os.path.join(TMP, "data")), B=BIN)


def readme_block(marker):
    """The fenced block that follows `<!-- readme-example: marker -->` in README.md."""
    with open(os.path.join(SRC, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- readme-example: " + re.escape(marker) + r" -->\s*```[a-z]*\n(.*?)```", text, re.S)
    if not m:
        raise AssertionError(f"README.md has no block after <!-- readme-example: {marker} -->")
    return m.group(1)


def commands():
    """The command lines of the commands block (comments after '#' dropped)."""
    out = []
    for line in readme_block("commands").splitlines():
        line = line.split("  #")[0].strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def sh(line):
    return subprocess.run(["bash", "-c", line], capture_output=True, text=True, env=ENV, cwd=TMP, timeout=900)


INTERVAL = re.compile(r"\[\d+\.\d\d, \d+\.\d\d\]")


class ReadmeExample(unittest.TestCase):
    def test_add_a_variant_run_compare_and_see_the_verdict(self):
        env = json.loads(subprocess.run([BIN, "env", "--json"], capture_output=True, text=True).stdout)
        if "opencl" not in {d["backend"] for d in env["devices"]}:
            self.skipTest("no OpenCL device (the example runs on --backend opencl)")
        spec = json.loads(readme_block("my.json"))  # valid JSON as printed
        with open(os.path.join(TMP, "my.json"), "w", encoding="utf-8") as f:
            json.dump(spec, f)
        lines = commands()
        self.assertGreaterEqual(len(lines), 3, lines)
        self.assertTrue(lines[0].startswith("$B run --experiment my.json"), lines[0])
        compares = [l for l in lines if l.startswith("$B compare")]
        self.assertGreaterEqual(len(compares), 2, lines)

        run = sh(lines[0])
        self.assertEqual(run.returncode, 0, run.stderr)
        verdicts = [l for l in run.stdout.splitlines() if l.startswith(f"verdict {spec['id']} on opencl:0")]
        self.assertEqual(len(verdicts), 1, run.stdout)
        self.assertRegex(verdicts[0], r": (holds|does not hold) \u2014 ")  # decided, with its numbers
        self.assertIn("95% interval [", verdicts[0])
        if any(d["backend"] == "opencl" and d["type"] == "cpu" for d in env["devices"]):
            self.assertIn("the device is a CPU", verdicts[0])  # PoCL: says a GPU claim is not tested

        for line in compares:
            r = sh(line)
            self.assertEqual(r.returncode, 0, f"{line}\n{r.stdout}\n{r.stderr}")
            matched = re.search(r"^(\d+) matched point\(s\)", r.stdout, re.M)
            self.assertTrue(matched and int(matched.group(1)) >= 2, r.stdout)  # 2 group sizes / 2 variants
            rows = [l for l in r.stdout.splitlines() if l.startswith("*") or "/*" in l]
            self.assertTrue(rows, r.stdout)
            for row in rows:
                self.assertRegex(row, INTERVAL)


if __name__ == "__main__":
    unittest.main(verbosity=2)
