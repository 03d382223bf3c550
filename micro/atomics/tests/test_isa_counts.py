#!/usr/bin/env python3
"""micro/atomics/isa_counts.py: demangling, SASS and PTX counting on canned
listings, merging into a results document; and, where nvcc and cuobjdump are
found, the counts of a cubin compiled here (nvcc -cubin -arch=sm_90) from the
family's own kernels: the plain copy has global loads and stores and no
atomic, the copy with a never-executed atomic and figure 3's 'both' have one.

Exit status 0 when all checks pass (the cubin part is skipped, with a note,
without nvcc or cuobjdump), 1 otherwise."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ.get("HARNESS_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(SRC, "micro", "atomics"))
import isa_counts  # noqa: E402

SASS = """
	code for sm_90
		Function : _ZN29harness_kernels_micro_atomics18atomics_copy_plainEPKjPjj
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/              @!P0 BRA 0x90 ;
        /*0030*/                   LDG.E R5, desc[UR4][R2.64] ;
        /*0040*/                   IMAD.WIDE.U32 R4, R7, 0x4, R4 ;
        /*0050*/                   STG.E desc[UR4][R4.64], R5 ;
        /*0060*/                   EXIT ;
		Function : _Z9my_kernelPj
        /*0000*/                   ATOMS.ADD R3, [R2], R4 ;
        /*0010*/               @P0 REDG.E.ADD.STRONG.GPU desc[UR4][R2.64], R11 ;
        /*0020*/                   ATOMG.E.ADD.STRONG.GPU PT, R9, desc[UR4][R2.64], R9 ;
        /*0030*/                   IADD3 R1, R1, 1, RZ ;
"""

PTX = """
.visible .entry atomics_fig3_both(
	.param .u64 atomics_fig3_both_param_0
)
{
	ld.param.u64 	%rd1, [atomics_fig3_both_param_0];
	mov.u32 	%r1, %tid.x;
	atom.global.add.u32 	%r2, [%rd1], %r1;
	ld.global.u32 	%r3, [%rd1];
	st.global.u32 	[%rd2], %r3;
	atom.shared.add.u32 	%r4, [%rd3], 1;
@%p1 bra 	$L__BB0_2;
	ret;
}
"""


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def unit_tests():
    check(isa_counts.kernel_name("_ZN29harness_kernels_micro_atomics18atomics_copy_plainEPKjPjj")
          == "atomics_copy_plain", "nested name")
    check(isa_counts.kernel_name("_Z9my_kernelPj") == "my_kernel", "plain mangled name")
    check(isa_counts.kernel_name("atomics_fig3_both") == "atomics_fig3_both", "unmangled")
    c = isa_counts.count_sass(SASS)
    plain = c["atomics_copy_plain"]
    check((plain["global_loads"], plain["global_stores"], plain["global_atomics"]) == (1, 1, 0), plain)
    check(plain["control"] == 2 and plain["alu"] == 3 and plain["total"] == 7, plain)
    check(plain["alu_fetch"] == 1.5, plain)
    mine = c["my_kernel"]
    check(mine["global_atomics"] == 2 and mine["shared_atomics"] == 1 and mine["alu"] == 1, mine)
    p = isa_counts.count_ptx(PTX)["atomics_fig3_both"]
    check((p["global_loads"], p["global_stores"], p["global_atomics"], p["shared_atomics"])
          == (1, 1, 1, 1), p)
    # merge: a cuda fig3-ideal point gets the sum of its two kernels, opencl points nothing
    counts = {"atomics_fig3_atomic": dict(isa_counts.empty(), global_atomics=1, alu=4),
              "atomics_fig3_memory": dict(isa_counts.empty(), global_loads=1, global_stores=1, alu=2)}
    for v in counts.values():
        isa_counts.finish(v)
    doc = {"points": [
        {"framework": "atomics", "variant": "fig3-ideal", "app": "path-fig3", "backend": "cuda", "counters": {}},
        {"framework": "atomics", "variant": "fig3-ideal", "app": "path-fig3", "backend": "opencl"},
        {"framework": "memory", "variant": "l2", "app": "l2-read", "backend": "cuda"}]}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        check(isa_counts.merge_into(path, counts, "cuda") == 1, "one point merged")
        with open(path) as f:
            got = json.load(f)["points"]
    c0 = got[0]["counters"]
    check(c0["isa_global_atomics"] == 1 and c0["isa_global_loads"] == 1 and c0["isa_alu"] == 6, c0)
    check(c0["isa_alu_fetch"] == 2.0, c0)
    check("counters" not in got[1] and "counters" not in got[2], got)
    print("ok: demangling, SASS and PTX counting, merging")


def cubin_test():
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if nvcc is None or isa_counts.find_cuobjdump() is None:
        print("skipped the cubin check: " + ("no nvcc" if nvcc is None else "no cuobjdump"))
        return
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "k.cu")
        with open(cu, "w") as f:
            f.write('#include "harness/dialect/dialect.h"\n#include "micro/atomics/kernels/path.cl"\n'
                    '#include "micro/atomics/kernels/atomics.cl"\n')
        cubin = os.path.join(d, "k.cubin")
        r = subprocess.run([nvcc, "-cubin", "-arch=sm_90", "-O3", "-I", SRC, cu, "-o", cubin],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"nvcc: {r.stderr}")
        c = isa_counts.count_sass(isa_counts.sass_of(cubin))
    for name in ("atomics_copy_plain", "atomics_copy_atomic_never", "atomics_fig3_memory",
                 "atomics_fig3_both", "atomics_software_add", "atomics_system_add"):
        check(name in c, f"{name} in {sorted(c)}")
    plain, never = c["atomics_copy_plain"], c["atomics_copy_atomic_never"]
    check(plain["global_loads"] >= 1 and plain["global_stores"] >= 1 and plain["global_atomics"] == 0, plain)
    check(never["global_atomics"] >= 1, never)
    check(c["atomics_fig3_memory"]["global_atomics"] == 0, c["atomics_fig3_memory"])
    check(c["atomics_fig3_both"]["global_atomics"] >= 1, c["atomics_fig3_both"])
    check(c["atomics_system_add"]["global_atomics"] >= 1, c["atomics_system_add"])
    # the software atomic uses global atomics nowhere: only loads, stores and local atomics
    sw = c["atomics_software_add"]
    check(sw["global_atomics"] == 0 and sw["shared_atomics"] >= 1, sw)
    print("ok: sm_90 cubin counts: " + ", ".join(
        f"{k} ld {v['global_loads']} st {v['global_stores']} atom {v['global_atomics']}"
        for k, v in sorted(c.items()) if k.startswith(("atomics_copy", "atomics_fig3"))))


def main() -> int:
    try:
        unit_tests()
        cubin_test()
    except AssertionError as e:
        print(f"FAILED: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
