#!/usr/bin/env python3
"""Instruction counts of the atomics kernels from built code: the machine-code
evidence the paper took from AMD's ISA (FastPath/CompletePath accesses, the
ALU:Fetch ratio), here global loads, stores and atomics per kernel.

    isa_counts.py FILE [--ptx] [--json OUT] [--into RESULTS.json [--backend B]]

FILE is a cubin, fatbin or any executable/object with embedded CUDA code (the
harness binary itself: build/bin/harness), disassembled with `cuobjdump -sass`
(found on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin; `nvdisasm` must be
beside it or on PATH); with --ptx, FILE is PTX text (NVIDIA OpenCL's program
binary, or nvcc -ptx) and is counted as it is. Prints one JSON object per
kernel: {kernel: {global_loads, global_stores, global_atomics, shared_atomics,
shared_loads, shared_stores, alu, control, total, alu_fetch}}, where alu_fetch
is alu / (global loads + stores + atomics) (the paper's ALU:Fetch ratio).

--into merges the counts into a harness results document as counters
isa_global_loads, isa_global_stores, isa_global_atomics, isa_shared_atomics,
isa_alu and isa_alu_fetch of every point of backend B (default: cuda for SASS,
opencl for PTX) whose variant/app maps to kernels (KERNELS below; a point
that runs two kernels gets their sums), rewriting the file in place.

Exit status: 0; 1 when cuobjdump fails or finds no kernel; 2 on bad usage."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

# SASS opcodes (the part before the first '.').
SASS_GLOBAL_LOADS = {"LDG", "LD"}
SASS_GLOBAL_STORES = {"STG", "ST"}
SASS_GLOBAL_ATOMICS = {"ATOMG", "ATOM", "RED", "REDG", "REDUX_G"}
SASS_SHARED_ATOMICS = {"ATOMS"}
SASS_SHARED_LOADS = {"LDS", "LDSM"}
SASS_SHARED_STORES = {"STS"}
SASS_CONTROL = {"BRA", "BRX", "EXIT", "RET", "CALL", "BAR", "BSSY", "BSYNC", "WARPSYNC", "NOP",
                "YIELD", "MEMBAR", "FENCE", "CCTL", "ERRBAR", "JMP", "BPT", "NANOSLEEP", "DEPBAR"}

# The kernels each point runs: (variant, app) -> kernel names; app None = any.
KERNELS = {
    ("copy-plain", None): ["atomics_copy_plain"],
    ("copy-never", None): ["atomics_copy_atomic_never"],
    ("copy-thread", None): ["atomics_copy_atomic_thread"],
    ("copy-wave", None): ["atomics_copy_atomic_wave"],
    ("fig3-atomic", None): ["atomics_fig3_atomic"],
    ("fig3-memory", None): ["atomics_fig3_memory"],
    ("fig3-both", None): ["atomics_fig3_both"],
    ("fig3-ideal", None): ["atomics_fig3_atomic", "atomics_fig3_memory"],
    ("system", "atomic-add"): ["atomics_system_add"],
    ("system", "atomic-add-mem"): ["atomics_system_add_mem"],
    ("system", "scalar-product"): ["atomics_dot_system"],
    ("system", "mm-map"): ["atomics_mm_thread"],
    ("system", "kmeans-map"): ["atomics_km_thread"],
    ("system", "keyword-match"): ["atomics_match_system"],
    ("wave", "mm-map"): ["atomics_mm_wave"],
    ("wave", "kmeans-map"): ["atomics_km_wave"],
    ("software", "atomic-add"): ["atomics_software_add"],
    ("software", "atomic-add-mem"): ["atomics_software_add_mem"],
    ("software", "scalar-product"): ["atomics_dot_software"],
    ("software", "mm-map"): ["atomics_mm_software"],
    ("software", "kmeans-map"): ["atomics_km_software"],
    ("software", "keyword-match"): ["atomics_match_software"],
    ("model", None): ["atomics_system_add", "atomics_software_add"],
}

FIELDS = ("global_loads", "global_stores", "global_atomics", "shared_atomics", "shared_loads",
          "shared_stores", "alu", "control", "total")


def kernel_name(symbol: str) -> str:
    """The unqualified name of an Itanium-mangled function (_ZN..E.. or _Z<len>..);
    an unmangled name as it is."""
    if not symbol.startswith("_Z"):
        return symbol
    s = symbol[2:]
    nested = s.startswith("N")
    if nested:
        s = s[1:]
    last = symbol
    while s and s[0].isdigit():
        m = re.match(r"(\d+)", s)
        n = int(m.group(1))
        s = s[len(m.group(1)):]
        last = s[:n]
        s = s[n:]
        if not nested:
            break
    return last


def empty() -> dict:
    return {f: 0 for f in FIELDS}


def finish(counts: dict) -> dict:
    fetch = counts["global_loads"] + counts["global_stores"] + counts["global_atomics"]
    counts["alu_fetch"] = counts["alu"] / fetch if fetch else None
    return counts


def count_sass(text: str) -> dict:
    out: dict[str, dict] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            current = out.setdefault(kernel_name(m.group(1)), empty())
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", line)
        if not m or current is None:
            continue
        op = m.group(1)
        current["total"] += 1
        if op in SASS_GLOBAL_LOADS:
            current["global_loads"] += 1
        elif op in SASS_GLOBAL_STORES:
            current["global_stores"] += 1
        elif op in SASS_GLOBAL_ATOMICS:
            current["global_atomics"] += 1
        elif op in SASS_SHARED_ATOMICS:
            current["shared_atomics"] += 1
        elif op in SASS_SHARED_LOADS:
            current["shared_loads"] += 1
        elif op in SASS_SHARED_STORES:
            current["shared_stores"] += 1
        elif op in SASS_CONTROL:
            current["control"] += 1
        else:
            current["alu"] += 1
    return {k: finish(v) for k, v in out.items()}


def count_ptx(text: str) -> dict:
    out: dict[str, dict] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)", line)
        if m:
            current = out.setdefault(kernel_name(m.group(1)), empty())
            continue
        s = line.strip()
        if current is None or not s or s.startswith(("//", ".", "{", "}", "$")) or s.endswith(":"):
            continue
        s = re.sub(r"^@!?%\w+\s+", "", s)
        op = s.split()[0].rstrip(";")
        parts = op.split(".")
        current["total"] += 1
        if parts[0] in ("ld", "ldu") and "shared" in parts:
            current["shared_loads"] += 1
        elif parts[0] in ("ld", "ldu") and ("global" in parts or len(parts) == 1 or parts[1] in ("volatile", "relaxed", "acquire", "u32", "u64", "b32", "b64", "u8", "s32", "f32")):
            current["global_loads"] += 1
        elif parts[0] == "st" and "shared" in parts:
            current["shared_stores"] += 1
        elif parts[0] == "st":
            current["global_stores"] += 1
        elif parts[0] in ("atom", "red") and "shared" in parts:
            current["shared_atomics"] += 1
        elif parts[0] in ("atom", "red"):
            current["global_atomics"] += 1
        elif parts[0] in ("bra", "ret", "exit", "bar", "barrier", "membar", "fence", "call"):
            current["control"] += 1
        else:
            current["alu"] += 1
    return {k: finish(v) for k, v in out.items()}


def find_cuobjdump() -> str | None:
    for d in (os.environ.get("CUDA_HOME", "") + "/bin", "/usr/local/cuda/bin"):
        p = os.path.join(d, "cuobjdump")
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which("cuobjdump")


def sass_of(path: str) -> str:
    tool = find_cuobjdump()
    if tool is None:
        raise RuntimeError("cuobjdump not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)")
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(tool) + os.pathsep + env.get("PATH", "")
    r = subprocess.run([tool, "-sass", path], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"cuobjdump -sass {path}: {r.stderr.strip()}")
    return r.stdout


def kernels_of(p: dict) -> list[str] | None:
    v, a = p.get("variant"), p.get("app")
    return KERNELS.get((v, a)) or KERNELS.get((v, None))


def merge_into(path: str, counts: dict, backend: str) -> int:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    merged = 0
    for p in doc.get("points") or []:
        if p.get("framework") != "atomics" or p.get("backend") != backend:
            continue
        names = kernels_of(p)
        if not names or not all(n in counts for n in names):
            continue
        total = empty()
        for n in names:
            for f in FIELDS:
                total[f] += counts[n][f]
        finish(total)
        c = p.setdefault("counters", {})
        for f in ("global_loads", "global_stores", "global_atomics", "shared_atomics", "alu"):
            c["isa_" + f] = total[f]
        if total["alu_fetch"] is not None:
            c["isa_alu_fetch"] = total["alu_fetch"]
        merged += 1
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, path)
    return merged


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--ptx", action="store_true", help="FILE is PTX text")
    ap.add_argument("--json", help="also write the counts here")
    ap.add_argument("--into", action="append", default=[], help="results document(s) to merge into")
    ap.add_argument("--backend", help="points of this backend (default cuda, or opencl with --ptx)")
    args = ap.parse_args(argv)
    try:
        if args.ptx:
            with open(args.file, encoding="utf-8", errors="replace") as f:
                counts = count_ptx(f.read())
        else:
            counts = count_sass(sass_of(args.file))
    except (OSError, RuntimeError) as e:
        print(f"isa_counts.py: {e}", file=sys.stderr)
        return 1
    if not counts:
        print(f"isa_counts.py: no kernel found in {args.file}", file=sys.stderr)
        return 1
    text = json.dumps(counts, indent=1, sort_keys=True)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    backend = args.backend or ("opencl" if args.ptx else "cuda")
    for path in args.into:
        n = merge_into(path, counts, backend)
        print(f"isa_counts.py: merged counts into {n} {backend} point(s) of {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
