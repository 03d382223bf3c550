#!/usr/bin/env python3
"""gpu_cores.py: each GPU gets an equal, disjoint set of whole cores, local
to it where the machine says so."""

import unittest

import _common  # noqa: F401  (puts scripts/ on the path)
import gpu_cores


def smt_pairs(n_cores: int) -> dict:
    """cpu c and c + n_cores are the two threads of one core (the usual Linux numbering)."""
    return {c: frozenset({c % n_cores, c % n_cores + n_cores}) for c in range(2 * n_cores)}


class GpuCoresTest(unittest.TestCase):
    def test_cpulists_round_trip(self):
        self.assertEqual(gpu_cores.parse_cpulist("0-2,8,10-11\n"), {0, 1, 2, 8, 10, 11})
        self.assertEqual(gpu_cores.format_cpulist({11, 0, 1, 2, 8, 10}), "0-2,8,10-11")

    def test_two_gpus_per_socket_split_their_socket_in_whole_cores(self):
        # 2 sockets x 8 cores x 2 threads; GPUs 0, 1 on socket 0 and 2, 3 on socket 1.
        sock0 = set(range(0, 8)) | set(range(16, 24))
        sock1 = set(range(8, 16)) | set(range(24, 32))
        out = gpu_cores.split([sock0, sock0, sock1, sock1], set(range(32)), smt_pairs(16))
        self.assertEqual(out[0], {0, 1, 2, 3, 16, 17, 18, 19})
        self.assertEqual(out[1], {4, 5, 6, 7, 20, 21, 22, 23})
        self.assertEqual(out[2], {8, 9, 10, 11, 24, 25, 26, 27})
        for a in range(4):
            for b in range(a + 1, 4):
                self.assertFalse(out[a] & out[b], (a, b))

    def test_unknown_locality_shares_every_usable_cpu(self):
        out = gpu_cores.split([None, None], {0, 1, 2, 3, 4}, {})
        self.assertEqual(out, [{0, 1}, {2, 3}])

    def test_local_cpus_outside_the_affinity_mask_are_not_used(self):
        out = gpu_cores.split([{0, 1, 2, 3}], {2, 3, 4}, {})
        self.assertEqual(out, [{2, 3}])

    def test_fewer_cores_than_gpus_is_an_error(self):
        with self.assertRaises(ValueError):
            gpu_cores.split([None, None, None], {0, 1}, {})


if __name__ == "__main__":
    unittest.main()
