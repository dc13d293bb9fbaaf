"""Bao perft speed: leaves per second of both variants, compiled and pure,
and (``--plain-c``) the same perft as a stand-alone C program.

    python benchmarks/bao_perft.py            # compiled and pure kernels
    python benchmarks/bao_perft.py --plain-c  # also the plain C comparison

The plain C comparison compiles a small harness that includes the C file
Cython generated for engine/_bao.pyx (run ``python setup.py build_ext
--inplace`` first) and runs its own perft over the kernel's static
functions: direct calls the compiler may inline, no ``Ops`` function
pointers, no ``-fwrapv``, ``-march=native``. The rules code is the same,
so the difference is what Cython and the common kernel interface cost
over a plain C loop of the same work.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREFIX = "__pyx_f_6bingwa_6engine_4_bao_"
STATE = "__pyx_t_6bingwa_6engine_4_bao_BaoState"

HARNESS = r"""
#include "{source}"
#include <stdio.h>
#include <string.h>
#include <time.h>

static unsigned long long plain_perft(const {state}* s, int depth) {{
    int moves[256];
    int scores[2];
    int n = {prefix}gen_moves(s, moves);
    if ({prefix}game_end(s, n, scores)) return 0;
    if (depth == 1) return (unsigned long long) n;
    unsigned long long total = 0;
    {state} child;
    for (int i = 0; i < n; i++) {{
        {prefix}make_move(s, moves[i], &child);
        total += plain_perft(&child, depth - 1);
    }}
    return total;
}}

int main(int argc, char** argv) {{
    {state} s;
    memset(&s, 0, sizeof s);
    int kujifunza = argv[1][0] == 'k';
    int depth = atoi(argv[2]);
    for (int side = 0; side < 2; side++) {{
        if (kujifunza) {{
            for (int k = 0; k < 16; k++) s.pits[16 * side + k] = 2;
        }} else {{
            s.pits[16 * side + 4] = 6; s.pits[16 * side + 5] = 2; s.pits[16 * side + 6] = 2;
            s.hand[side] = 22; s.house[side] = 1;
        }}
    }}
    s.block = 255;
    s.takasia = !kujifunza;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    unsigned long long n = plain_perft(&s, depth);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double t = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
    printf("%llu %.6f\n", n, t);
    return 0;
}}
"""

RUNS = [("bao", 11), ("kujifunza", 9)]


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def best_of(repeats: int, function, *args):
    """The result and the fastest of ``repeats`` timings."""
    times = []
    result = None
    for _ in range(repeats):
        result, elapsed = timed(function, *args)
        times.append(elapsed)
    return result, min(times)


def kernel_rows(repeats: int) -> dict[str, float]:
    from bingwa.engine import find_variant

    rates = {}
    for spec, depth in RUNS:
        variant = find_variant(spec)
        if not variant.compiled:
            sys.exit("the compiled kernel is not built: python setup.py build_ext --inplace")
        state = variant.initial_state()
        leaves, elapsed = best_of(repeats, variant.kernel.perft, state, depth)
        rates[spec] = leaves / elapsed
        print(f"compiled  {spec:<10} perft({depth}) = {leaves:>11,}  {elapsed:7.3f} s  "
              f"{leaves / elapsed:>12,.0f} leaves/s")
        pure = variant.make_kernel(compiled=False)
        small = depth - 5
        leaves, elapsed = timed(pure.perft, state, small)
        print(f"pure      {spec:<10} perft({small}) = {leaves:>11,}  {elapsed:7.3f} s  "
              f"{leaves / elapsed:>12,.0f} leaves/s")
    return rates


def plain_c_rows(rates: dict[str, float], repeats: int) -> None:
    source = ROOT / "engine" / "_bao.c"
    if not source.exists():
        sys.exit("engine/_bao.c is missing: python setup.py build_ext --inplace")
    if shutil.which("gcc") is None:
        sys.exit("gcc is needed for --plain-c")
    include = sysconfig.get_paths()["include"]
    libdir = sysconfig.get_config_var("LIBDIR")
    version = sysconfig.get_config_var("LDVERSION")
    with tempfile.TemporaryDirectory() as tmp:
        harness = Path(tmp) / "plain_perft.c"
        harness.write_text(HARNESS.format(source=source, state=STATE, prefix=PREFIX))
        program = Path(tmp) / "plain_perft"
        subprocess.run(
            ["gcc", "-O3", "-march=native", "-w", f"-I{include}", str(harness), "-o", str(program),
             f"-L{libdir}", f"-lpython{version}", f"-Wl,-rpath,{libdir}"],
            check=True,
        )
        for spec, depth in RUNS:
            best = None
            for _ in range(repeats):
                out = subprocess.run([str(program), spec, str(depth)], check=True,
                                     capture_output=True, text=True, env=dict(os.environ))
                leaves, elapsed = out.stdout.split()
                best = float(elapsed) if best is None else min(best, float(elapsed))
            rate = int(leaves) / best
            print(f"plain C   {spec:<10} perft({depth}) = {int(leaves):>11,}  {best:7.3f} s  "
                  f"{rate:>12,.0f} leaves/s  (kernel reaches {rates[spec] / rate:.0%} of it)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain-c", action="store_true", help="also time a stand-alone C perft")
    parser.add_argument("--repeats", type=int, default=3, help="timings per row (the best is kept)")
    args = parser.parse_args()
    rates = kernel_rows(args.repeats)
    if args.plain_c:
        plain_c_rows(rates, args.repeats)


if __name__ == "__main__":
    main()
