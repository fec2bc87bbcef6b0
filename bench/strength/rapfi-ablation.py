#!/usr/bin/env python3
"""Builds Rapfi with switches that turn parts of its search off, to measure what each is worth.

usage:
  rapfi-ablation.py --rapfi-src DIR --out DIR [--jobs N]

Copies Rapfi's source (DIR: the repository or its Rapfi/ folder, as for build-tools.sh) to
OUT/src, edits its alpha-beta search (search/ab/search.cpp) so that environment variables
can turn its selective parts off, builds OUT/build/pbrain-rapfi (CMake Release,
NO_COMMAND_MODULES=ON, as build-tools.sh) and writes one wrapper a variant into OUT:

  rapfi-full   every switch on: the search unchanged (node for node Rapfi's own)
  rapfi-nomc   no move-count pruning                        (RAPFI_ABL_MC=0)
  rapfi-nolmr  no late-move reductions                      (RAPFI_ABL_LMR=0)
  rapfi-nofut  no razoring, futility or null-move pruning   (RAPFI_ABL_FUT=0)
  rapfi-nomclmr  neither move-count pruning nor late-move reductions
  rapfi-bare   none of those, no singular extension, no trivial-move pruning
               (RAPFI_ABL_MC=0 RAPFI_ABL_LMR=0 RAPFI_ABL_FUT=0 RAPFI_ABL_SE=0 RAPFI_ABL_TRIV=0)

Each wrapper is a Gomocup brain for vs-rapfi.sh --rapfi. The edits are anchored on single
lines of the search's source (tested at Rapfi 3aedf3a); where an anchor is missing or not
unique the script stops and says which, rather than build something else. Nothing of Rapfi's
source is kept in this repository: the script edits a copy of the checkout it is given.
Standard library only.
"""
import argparse
import os
import shutil
import stat
import subprocess
import sys

SWITCHES = """
#include <cstdlib>
namespace {
/// Ablation switches (rapfi-ablation.py): each on unless its variable is set to 0.
struct AblationSwitches { bool mc, lmr, fut, se, triv; };
int ablationSwitch(const char *name)
{
    const char *v = std::getenv(name);
    return v ? std::atoi(v) : 1;
}
const AblationSwitches abl = {ablationSwitch("RAPFI_ABL_MC") != 0,
                              ablationSwitch("RAPFI_ABL_LMR") != 0,
                              ablationSwitch("RAPFI_ABL_FUT") != 0,
                              ablationSwitch("RAPFI_ABL_SE") != 0,
                              ablationSwitch("RAPFI_ABL_TRIV") != 0};
}  // namespace
"""

# (what the line starts with after its indentation, what replaces that beginning)
EDITS = [
    # Step 7, razoring (its condition's second line)
    ("&& (alpha < VALUE_MATE_IN_MAX_PLY || !ttHit)", "&& abl.fut && (alpha < VALUE_MATE_IN_MAX_PLY || !ttHit)"),
    # Step 8, futility pruning
    ("if (!PvNode && eval < VALUE_MATE_IN_MAX_PLY", "if (abl.fut && !PvNode && eval < VALUE_MATE_IN_MAX_PLY"),
    # Step 9, null move pruning
    ("if (!PvNode && !oppo4 && !skipMove && eval >= beta", "if (abl.fut && !PvNode && !oppo4 && !skipMove && eval >= beta"),
    # Step 12, move count pruning
    ("if (moveCount >= futilityMoveCount(", "if (abl.mc && moveCount >= futilityMoveCount("),
    # Step 12, trivial moves
    ("if (trivialMove && depth < TRIVIAL_PRUN_DEPTH)", "if (abl.triv && trivialMove && depth < TRIVIAL_PRUN_DEPTH)"),
    # Step 13, singular extension (the tt move's small extension then applies instead)
    ("else if (!RootNode && depth >= SE_DEPTH && move == ttMove", "else if (abl.se && !RootNode && depth >= SE_DEPTH && move == ttMove"),
    # Step 15, late move reductions
    ("if (depth >= 2 && moveCount > 1 + RootNode) {", "if (abl.lmr && depth >= 2 && moveCount > 1 + RootNode) {"),
]
INCLUDE_ANCHOR = '#include "../movepick.h"\n'

VARIANTS = {
    "full": "",
    "nomc": "RAPFI_ABL_MC=0",
    "nolmr": "RAPFI_ABL_LMR=0",
    "nofut": "RAPFI_ABL_FUT=0",
    "nomclmr": "RAPFI_ABL_MC=0 RAPFI_ABL_LMR=0",
    "bare": "RAPFI_ABL_MC=0 RAPFI_ABL_LMR=0 RAPFI_ABL_FUT=0 RAPFI_ABL_SE=0 RAPFI_ABL_TRIV=0",
}


def die(msg):
    print(f"rapfi-ablation.py: {msg}", file=sys.stderr)
    sys.exit(1)


def edit(text):
    """The search's source with the switches in, or a reason why not."""
    if text.count(INCLUDE_ANCHOR) != 1:
        die(f"search.cpp: the line {INCLUDE_ANCHOR.strip()!r} is not there exactly once (another Rapfi version?)")
    text = text.replace(INCLUDE_ANCHOR, INCLUDE_ANCHOR + SWITCHES, 1)
    lines = text.split("\n")
    for old, new in EDITS:
        hits = [i for i, line in enumerate(lines) if line.strip().startswith(old)]
        if len(hits) != 1:
            die(f"search.cpp: {len(hits)} lines begin with {old!r}, expected 1 (another Rapfi version?)")
        i = hits[0]
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        lines[i] = indent + new + lines[i].strip()[len(old) :]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rapfi-src", required=True, help="Rapfi's source: the repository or its Rapfi/ folder")
    ap.add_argument("--out", required=True, help="folder for the edited copy, the build and the wrappers")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()

    src = os.path.abspath(a.rapfi_src)
    if os.path.isfile(os.path.join(src, "Rapfi", "CMakeLists.txt")):
        src = os.path.join(src, "Rapfi")
    if not os.path.isfile(os.path.join(src, "search", "ab", "search.cpp")):
        die(f"--rapfi-src: no search/ab/search.cpp in {src!r} or its Rapfi/ folder")
    out = os.path.abspath(a.out)
    copy = os.path.join(out, "src")
    build = os.path.join(out, "build")
    if os.path.exists(copy):
        shutil.rmtree(copy)
    os.makedirs(out, exist_ok=True)
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("build", ".git"))

    path = os.path.join(copy, "search", "ab", "search.cpp")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(edit(text))

    log = os.path.join(out, "build.log")
    with open(log, "w") as lf:
        for cmd in (
            ["cmake", "-S", copy, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DNO_COMMAND_MODULES=ON",
             "-DUSE_AVX512=OFF", "-DUSE_VNNI=OFF"],
            ["cmake", "--build", build, "--parallel", str(a.jobs)],
        ):
            if subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT).returncode != 0:
                die(f"failed: {' '.join(cmd)} (log: {log})")
    brain = os.path.join(build, "pbrain-rapfi")
    if not os.access(brain, os.X_OK):
        die(f"the build made no pbrain-rapfi (log: {log})")

    for name, env in VARIANTS.items():
        w = os.path.join(out, f"rapfi-{name}")
        with open(w, "w") as f:
            f.write(f'#!/bin/sh\nexec env {env} "{brain}" "$@"\n')
        os.chmod(w, os.stat(w).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        print(w)


if __name__ == "__main__":
    main()
