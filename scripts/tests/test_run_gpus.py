#!/usr/bin/env python3
"""run_gpus.sh and plan_shards.py refuse bad input with a one-line cause and a
non-zero exit, before setting anything up."""

import os
import stat
import subprocess
import sys
import tempfile
import unittest

import _common as C

RUN_GPUS = os.path.join(C.SCRIPTS, "run_gpus.sh")
PLAN = os.path.join(C.SCRIPTS, "plan_shards.py")


class RunGpusTest(unittest.TestCase):
    def run_script(self, *args, path_first=None):
        env = dict(os.environ)
        if path_first:
            env["PATH"] = path_first + os.pathsep + env["PATH"]
        return subprocess.run(["bash", RUN_GPUS, *args], capture_output=True, text=True, env=env,
                              timeout=60)

    def test_a_subset_is_refused_the_split_is_per_gpu(self):
        r = self.run_script("--experiments", "mars.fig4")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--experiments is chosen per GPU here", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_no_nvidia_gpu_stops_before_set_up(self):
        with tempfile.TemporaryDirectory() as bin_dir:
            fake = os.path.join(bin_dir, "nvidia-smi")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\nexit 9\n")
            os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
            r = self.run_script(path_first=bin_dir)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no NVIDIA GPU", r.stderr)
        self.assertNotIn("setup:", r.stdout + r.stderr)

    def test_plan_shards_needs_at_least_one_shard(self):
        r = subprocess.run([sys.executable, PLAN, "--shards", "0"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--shards must be at least 1", r.stderr)


if __name__ == "__main__":
    unittest.main()
