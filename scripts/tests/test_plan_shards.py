#!/usr/bin/env python3
"""plan_shards.py: experiments that reuse each other's points share a shard,
shards balance by time, and every experiment lands in exactly one."""

import unittest

import _common  # noqa: F401  (puts scripts/ on the path)
import plan_shards
import suite_budget


class PlanShardsTest(unittest.TestCase):
    def test_a_reuse_group_stays_together_and_shards_balance(self):
        seconds = {"a.p": 50.0, "a.r": 10.0, "b": 40.0, "c": 30.0, "d": 25.0}
        shards = plan_shards.plan(seconds, {("a.r", "a.p")}, 2)
        self.assertEqual(sorted(i for _, ids in shards for i in ids), sorted(seconds))
        home = {i: k for k, (_, ids) in enumerate(shards) for i in ids}
        self.assertEqual(home["a.p"], home["a.r"])
        # LPT: a (60) | b (40) -> c (30) joins b -> d (25) joins a: 85 | 70.
        self.assertEqual(sorted(s for s, _ in shards), [70.0, 85.0])

    def test_within_a_shard_ids_keep_reproduces_order(self):
        shards = plan_shards.plan({"z": 1.0, "m": 1.0, "a": 1.0}, set(), 1)
        self.assertEqual(shards, [(3.0, ["a", "m", "z"])])

    def test_more_shards_than_groups_leaves_some_empty(self):
        shards = plan_shards.plan({"x": 5.0, "y": 3.0}, {("y", "x")}, 3)
        self.assertEqual(sorted(len(ids) for _, ids in shards), [0, 0, 2])

    def test_the_checked_in_suite_splits_into_every_experiment_once(self):
        specs = suite_budget.load_specs()
        times = suite_budget.experiment_times("gpu", specs)
        seconds = {i: s or 0.0 for i, (s, _, _) in times.items()}
        edges = plan_shards.reuse_edges("gpu")
        self.assertTrue(edges, "the reference documents record reused points")
        shards = plan_shards.plan(seconds, edges, 4)
        ids = [i for _, s in shards for i in s]
        self.assertEqual(sorted(ids), sorted(specs))
        home = {i: k for k, (_, s) in enumerate(shards) for i in s}
        for reuser, producer in edges:
            if reuser in home and producer in home:
                self.assertEqual(home[reuser], home[producer], (reuser, producer))


if __name__ == "__main__":
    unittest.main()
