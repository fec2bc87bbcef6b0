#!/usr/bin/env python3
"""Builds Rapfi with switches that turn parts of its search off, or put kinrow's parts in.

usage:
  rapfi-ablation.py --rapfi-src DIR --out DIR [--kinrow-src DIR] [--kinrow-scale K] [--jobs N]

Copies Rapfi's source (DIR: the repository or its Rapfi/ folder, as for build-tools.sh) to
OUT/src, edits its alpha-beta search (search/ab/search.cpp) so that environment variables
can turn its selective parts off, and its board and evaluation so that they can put kinrow's
move ordering and evaluation in place of Rapfi's own (transplants); builds
OUT/build/pbrain-rapfi (CMake Release, NO_COMMAND_MODULES=ON, as build-tools.sh) and writes
one wrapper a variant into OUT:

  rapfi-full   every switch on: the search unchanged (node for node Rapfi's own)
  rapfi-nomc   no move-count pruning                        (RAPFI_ABL_MC=0)
  rapfi-nolmr  no late-move reductions                      (RAPFI_ABL_LMR=0)
  rapfi-nofut  no razoring, futility or null-move pruning   (RAPFI_ABL_FUT=0)
  rapfi-nomclmr  neither move-count pruning nor late-move reductions
  rapfi-bare   none of those, no singular extension, no trivial-move pruning
               (RAPFI_ABL_MC=0 RAPFI_ABL_LMR=0 RAPFI_ABL_FUT=0 RAPFI_ABL_SE=0 RAPFI_ABL_TRIV=0)
  rapfi-novcfq the static evaluation at the horizon in place of the fours search
               (RAPFI_ABL_VCFQ=0; razoring still ends in the fours search)
  rapfi-nob4f3 facing a cell where the opponent makes a four and an open three at once, every
               candidate move in place of the answers to it and our own fours (RAPFI_ABL_B4F3=0)
  rapfi-kord   Rapfi's search with kinrow's move ordering          (RAPFI_KINROW_ORDER=1)
  rapfi-keval  Rapfi's search with kinrow's evaluation             (RAPFI_KINROW_EVAL=1)
  rapfi-kboth  Rapfi's search with kinrow's ordering and evaluation
  rapfi-kboth-lean  the same without the singular extension (RAPFI_ABL_SE=0), the reduction
               of a PV node whose table move is from an earlier iteration (RAPFI_ABL_PVR=0),
               the history's changes to reductions (RAPFI_ABL_STAT=0), the extension of a
               reduced move's re-search (RAPFI_ABL_LMRX=0) and reductions at the root
               (RAPFI_ABL_ROOTLMR=0)
  rapfi-kboth-lean-sq2  the same with kinrow's candidate area, the cells within two steps of
               a stone (RAPFI_ABL_SQUARE2=1; Rapfi's own reaches three steps, and four along
               the lines)

The transplants are kinrow's formulas on Rapfi's patterns (a cell's line patterns and its
four-line class map onto kinrow's; Rapfi's overline pattern, which matters only under the
rules that forbid overlines, counts as dead): the ordering score of a cell is kinrow's (its
threat class's attack bonus and its evaluation term for the side to move, the opponent's
defence bonus and half its term), divided by 4 to Rapfi's scale, Rapfi's history still
added; the evaluation is kinrow's (the cells' terms with the weights of the side to move and
of the side waiting averaged, the tempo, the strongest threat of each side) times 200 / K,
K the scale kinrow's fit found (README, "Evaluation fitted to Rapfi": 1,410), so that
Rapfi's margins keep their units, in place of Rapfi's pattern and threat tables. kinrow's weights are read from
--kinrow-src (default: the repository this script is in).

Every variant also counts its nodes by ply when RAPFI_PLYSTATS names a file: at exit it
writes one line a ply, "PLY ENTERED HORIZON TABLE EVAL RAZOR FUTILITY NULL LOOP" (nodes of
the alpha-beta search entered at that ply with depth left and at the horizon, then how many
reached the table lookup, the static evaluation, razoring, futility pruning, the null move
and the move loop), to compare the shape of its tree with kinrow's.

Each wrapper is a Gomocup brain for vs-rapfi.sh --rapfi. The edits are anchored on lines or
short pieces of Rapfi's source (tested at Rapfi 3aedf3a); where an anchor is missing or
found more or fewer times than expected the script stops and says which, rather than build
something else. Nothing of Rapfi's source is kept in this repository: the script edits a
copy of the checkout it is given.
Standard library only.
"""
import argparse
import os
import re
import shutil
import stat
import subprocess
import sys

SWITCHES = """
#include "../../game/ablation.h"
namespace {
/// Ablation switches (rapfi-ablation.py): each on unless its variable is set to 0.
struct AblationSwitches { bool mc, lmr, fut, se, triv, pvr, stat, lmrx, rootlmr, vcfq; };
const AblationSwitches abl = {Ablation::on("RAPFI_ABL_MC", true),
                              Ablation::on("RAPFI_ABL_LMR", true),
                              Ablation::on("RAPFI_ABL_FUT", true),
                              Ablation::on("RAPFI_ABL_SE", true),
                              Ablation::on("RAPFI_ABL_TRIV", true),
                              Ablation::on("RAPFI_ABL_PVR", true),
                              Ablation::on("RAPFI_ABL_STAT", true),
                              Ablation::on("RAPFI_ABL_LMRX", true),
                              Ablation::on("RAPFI_ABL_ROOTLMR", true),
                              Ablation::on("RAPFI_ABL_VCFQ", true)};
}  // namespace
"""

# Counters of the search's nodes by ply (RAPFI_PLYSTATS=FILE): how many nodes each ply enters,
# with depth left and at the horizon, and how many of them reach each step of the search;
# written to FILE when the program ends. Read once, so that a run without it costs a branch.
PLYSTATS = """
#include <atomic>
#include <cstdio>
namespace {
const char *const kxFile = std::getenv("RAPFI_PLYSTATS");
std::atomic<unsigned long long> kxPly[64][2], kxStep[64][6];
inline void kxCount(std::atomic<unsigned long long> &c)
{
    if (kxFile) c.fetch_add(1, std::memory_order_relaxed);
}
/// Writes the counts at exit: ply, nodes entered with depth left, at the horizon, and how
/// many reached the table lookup, the static evaluation, razoring, futility pruning, the
/// null move and the move loop.
struct KxDump
{
    ~KxDump()
    {
        FILE *o = kxFile ? std::fopen(kxFile, "w") : nullptr;
        if (!o) return;
        for (int i = 0; i < 64; i++) {
            if (!kxPly[i][0] && !kxPly[i][1]) continue;
            std::fprintf(o, "%d %llu %llu", i, kxPly[i][0].load(), kxPly[i][1].load());
            for (int k = 0; k < 6; k++) std::fprintf(o, " %llu", kxStep[i][k].load());
            std::fprintf(o, "\\n");
        }
        std::fclose(o);
    }
} kxDump;
}  // namespace
#define KX_STEP(k) kxCount(kxStep[std::min<int>(ss->ply, 63)][k])
"""

# The header every edited file reads its switches with, game/ablation.h.
ABLATION_H = """// The switches of rapfi-ablation.py, read from the environment.
#pragma once
#include <cstdlib>

namespace Ablation {
/// Whether the switch `name` is on: a number other than 0 in its variable, or `byDefault`
/// where the variable is not set.
inline bool on(const char *name, bool byDefault)
{
    const char *v = std::getenv(name);
    return v ? std::atoi(v) != 0 : byDefault;
}
}  // namespace Ablation
"""

MOVEPICK_SWITCH = """#include "../game/ablation.h"
namespace {
/// Ablation switch (rapfi-ablation.py): on unless RAPFI_ABL_B4F3 is 0.
const bool ablB4F3 = Ablation::on("RAPFI_ABL_B4F3", true);
}  // namespace
"""

# The transplant header, game/kinrow_terms.h; {weights} is filled from kinrow's source.
TERMS = """// kinrow's move ordering and evaluation on Rapfi's patterns (rapfi-ablation.py).
#pragma once
#include "../core/types.h"
#include "ablation.h"
#include <algorithm>

namespace Kinrow {
inline const bool ORDER = Ablation::on("RAPFI_KINROW_ORDER", false);
inline const bool EVAL  = Ablation::on("RAPFI_KINROW_EVAL", false);

/// kinrow's line pattern of a Rapfi line pattern (Dead B1 F1 B2 F2 B3 F3 B4 F4 F5).
inline int pattern(Pattern p)
{
    switch (p) {
    case B1: return 1;
    case F1: return 2;
    case B2: return 3;
    case F2:
    case F2A:
    case F2B: return 4;
    case B3: return 5;
    case F3:
    case F3S: return 6;
    case B4: return 7;
    case F4: return 8;
    case F5: return 9;
    default: return 0;
    }
}
/// kinrow's threat class of a Rapfi four-line pattern.
inline int threat(Pattern4 p)
{
    switch (p) {
    case H_FLEX3: return 1;
    case G_FLEX3_PLUS: return 2;
    case F_FLEX3_2X: return 3;
    case E_BLOCK4: return 4;
    case D_BLOCK4_PLUS: return 5;
    case C_BLOCK4_FLEX3: return 6;
    case B_FLEX4: return 7;
    case A_FIVE: return 8;
    default: return 0;
    }
}
struct Cells
{
    int pattern[10];
    int threat[9];
    int crossing;
};
{weights}
/// kinrow's evaluation term of a cell with these line patterns (kinrow's) and threat class.
inline int term(const Cells &w, const int pats[4], int t)
{
    int s = w.threat[t], flex = 0;
    for (int d = 0; d < 4; d++) {
        s += w.pattern[pats[d]];
        flex += pats[d] >= 4 && pats[d] <= 6;
    }
    return s + (flex >= 2 ? w.crossing : 0);
}
}  // namespace Kinrow
"""

ORDER_BLOCK = """
        if (Kinrow::ORDER) {
            int pb[4], pw[4];
            for (int d = 0; d < 4; d++) {
                pb[d] = Kinrow::pattern(pattern2x[d].patBlack);
                pw[d] = Kinrow::pattern(pattern2x[d].patWhite);
            }
            int tb = Kinrow::threat(pattern4[BLACK]), tw = Kinrow::threat(pattern4[WHITE]);
            int eb = Kinrow::term(Kinrow::TO_MOVE, pb, tb), ew = Kinrow::term(Kinrow::TO_MOVE, pw, tw);
            int sb = Kinrow::ATTACK[tb] + eb + Kinrow::DEFENCE[tw] + ew / 2;
            int sw = Kinrow::ATTACK[tw] + ew + Kinrow::DEFENCE[tb] + eb / 2;
            score[BLACK] = (Score)std::clamp(sb / 4, -30000, 30000);
            score[WHITE] = (Score)std::clamp(sw / 4, -30000, 30000);
        }"""

VALUE_HELPER = """namespace {
/// A cell's part of the evaluation, black's view: Rapfi's, or with RAPFI_KINROW_EVAL twice
/// kinrow's term (the weights of the side to move and of the side waiting, added).
template <Rule R>
Value cellValueBlack(const Cell &c, PatternCode pcodeBlack, PatternCode pcodeWhite)
{
    if (!Kinrow::EVAL)
        return Config::getValueBlack(R, pcodeBlack, pcodeWhite);
    int t[2] = {Kinrow::threat((Pattern4)Config::getP4Score(R, BLACK, pcodeBlack)),
                Kinrow::threat((Pattern4)Config::getP4Score(R, WHITE, pcodeWhite))};
    int v    = 0;
    for (int side = 0; side < 2; side++) {
        int pats[4];
        for (int d = 0; d < 4; d++)
            pats[d] = Kinrow::pattern(side == 0 ? c.pattern2x[d].patBlack : c.pattern2x[d].patWhite);
        int both = Kinrow::term(Kinrow::TO_MOVE, pats, t[side]) + Kinrow::term(Kinrow::WAITING, pats, t[side]);
        v += side == 0 ? both : -both;
    }
    return (Value)v;
}
}  // namespace

"""

EVAL_BLOCK = """    if (Kinrow::EVAL) {
        auto strongest = [&](Color c) {
            for (int p = A_FIVE; p >= H_FLEX3; p--)
                if (st0.p4Count[c][p])
                    return Kinrow::threat((Pattern4)p);
            return 0;
        };
        int v = evaluateBasic(st0, self) / 2 + Kinrow::TEMPO + Kinrow::MOVER[strongest(self)]
                - Kinrow::WAITER[strongest(~self)];
        return std::clamp((Value)(int)(v * Kinrow::SCALE), VALUE_EVAL_MIN, VALUE_EVAL_MAX);
    }
"""

# Edits by file: (kind, anchor, text). "start": the unique line beginning (after its indent)
# with the anchor has that beginning replaced by text; "after" / "before": text goes after /
# before that line; "replace": the anchor, a piece of text found exactly `count` times, is
# replaced by text.
EDITS = {
    "search/ab/search.cpp": [
        ("after", '#include "../movepick.h"', SWITCHES + PLYSTATS),
        # the counters of RAPFI_PLYSTATS: every node of search(), then each step reached
        ("before", "// Dive into vcf search when the depth reaches zero",
         "    kxCount(kxPly[std::min<int>(ss->ply, 63)][depth <= 0.0f]);"),
        ("before", "// Step 4. Transposition table lookup.", "    KX_STEP(0);"),
        ("before", "// Step 6. Static evaluation", "    KX_STEP(1);"),
        ("before", "// Step 7. Razoring with VCF", "    KX_STEP(2);"),
        ("before", "// Step 8. Futility pruning: child node", "    KX_STEP(3);"),
        ("before", "// Step 9. Null move pruning", "    KX_STEP(4);"),
        ("before", "// Step 11. Loop through all legal moves", "    KX_STEP(5);"),
        # the horizon: the fours search, or (off) the static evaluation unless a five must be blocked
        ("after", "if (depth <= 0.0f) {", "        if (!abl.vcfq && !oppo5) return Evaluation::evaluate<Rule>(board, alpha, beta);"),
        ("start", "return vcfsearch<Rule, NT>(board, ss, alpha, beta);",
         "return !abl.vcfq ? Evaluation::evaluate<Rule>(board, alpha, beta) : vcfsearch<Rule, NT>(board, ss, alpha, beta);"),
        # Step 7, razoring (its condition's second line)
        ("start", "&& (alpha < VALUE_MATE_IN_MAX_PLY || !ttHit)", "&& abl.fut && (alpha < VALUE_MATE_IN_MAX_PLY || !ttHit)"),
        # Step 8, futility pruning
        ("start", "if (!PvNode && eval < VALUE_MATE_IN_MAX_PLY", "if (abl.fut && !PvNode && eval < VALUE_MATE_IN_MAX_PLY"),
        # Step 9, null move pruning
        ("start", "if (!PvNode && !oppo4 && !skipMove && eval >= beta", "if (abl.fut && !PvNode && !oppo4 && !skipMove && eval >= beta"),
        # Step 10, the reduction of a PV node whose table move was found iterations ago
        ("start", "if (PvNode && depth > 1 && ttMove)", "if (abl.pvr && PvNode && depth > 1 && ttMove)"),
        # Step 12, move count pruning
        ("start", "if (moveCount >= futilityMoveCount(", "if (abl.mc && moveCount >= futilityMoveCount("),
        # Step 12, trivial moves
        ("start", "if (trivialMove && depth < TRIVIAL_PRUN_DEPTH)", "if (abl.triv && trivialMove && depth < TRIVIAL_PRUN_DEPTH)"),
        # Step 13, singular extension (the tt move's small extension then applies instead)
        ("start", "else if (!RootNode && depth >= SE_DEPTH && move == ttMove", "else if (abl.se && !RootNode && depth >= SE_DEPTH && move == ttMove"),
        # Step 15, late move reductions (and, apart, at the root)
        ("start", "if (depth >= 2 && moveCount > 1 + RootNode) {",
         "if (abl.lmr && (abl.rootlmr || !RootNode) && depth >= 2 && moveCount > 1 + RootNode) {"),
        # Step 15, reductions changed by the move's history
        ("start", "r -= extensionFromStatScore(", "if (abl.stat) r -= extensionFromStatScore("),
        # Step 15, the extension of a reduced move's re-search
        ("start", "Depth ext = lmrExtension<Rule>(", "Depth ext = !abl.lmrx ? 0.0f : lmrExtension<Rule>("),
    ],
    # the move lists: facing a four-three cell of the opponent's, its answers and our fours
    # (root and main search)
    "search/movepick.cpp": [
        ("after", '#include <algorithm>', MOVEPICK_SWITCH),
        ("replace", "else if (board.p4Count(oppo, C_BLOCK4_FLEX3)", "else if (ablB4F3 && board.p4Count(oppo, C_BLOCK4_FLEX3)", 2),
    ],
    # the candidate area of a new board (Rapfi's built-in configuration keeps the default)
    "config.cpp": [
        ("after", '#include "config.h"', '#include "game/ablation.h"'),
        ("start", "CandidateRange DefaultCandidateRange = CandidateRange::SQUARE3_LINE4;",
         "CandidateRange DefaultCandidateRange = Ablation::on(\"RAPFI_ABL_SQUARE2\", false) ? CandidateRange::SQUARE2 : CandidateRange::SQUARE3_LINE4;"),
    ],
    # the move ordering score of a cell, kept up to date with its patterns
    "game/board.h": [
        ("after", '#include "pattern.h"', '#include "kinrow_terms.h"'),
        ("after", "score[WHITE]               = p4ScoreWhite.scoreSelf() + p4ScoreBlack.scoreOppo();", ORDER_BLOCK),
    ],
    # a cell's part of the evaluation, where the board sets it up and where a move updates it
    "game/board.cpp": [
        ("replace", "Config::getValueBlack(R, pcode[BLACK], pcode[WHITE])", "cellValueBlack<R>(c, pcode[BLACK], pcode[WHITE])", 2),
        ("replace", "template <Rule R>\nvoid Board::newGame()", VALUE_HELPER + "template <Rule R>\nvoid Board::newGame()", 1),
    ],
    "eval/eval.cpp": [
        ("after", '#include "eval.h"', '#include "../game/kinrow_terms.h"'),
        ("before", "Value basicEval  = (evaluateBasic(st0, self) + evaluateBasic(st1, self)) / 2;", EVAL_BLOCK),
    ],
}

# kinrow's ordering and evaluation in Rapfi's search, and that without the five parts.
KBOTH = "RAPFI_KINROW_ORDER=1 RAPFI_KINROW_EVAL=1"
KBOTH_LEAN = KBOTH + " RAPFI_ABL_SE=0 RAPFI_ABL_PVR=0 RAPFI_ABL_STAT=0 RAPFI_ABL_LMRX=0 RAPFI_ABL_ROOTLMR=0"

VARIANTS = {
    "full": "",
    "nomc": "RAPFI_ABL_MC=0",
    "nolmr": "RAPFI_ABL_LMR=0",
    "nofut": "RAPFI_ABL_FUT=0",
    "nomclmr": "RAPFI_ABL_MC=0 RAPFI_ABL_LMR=0",
    "bare": "RAPFI_ABL_MC=0 RAPFI_ABL_LMR=0 RAPFI_ABL_FUT=0 RAPFI_ABL_SE=0 RAPFI_ABL_TRIV=0",
    "novcfq": "RAPFI_ABL_VCFQ=0",
    "nob4f3": "RAPFI_ABL_B4F3=0",
    "kord": "RAPFI_KINROW_ORDER=1",
    "keval": "RAPFI_KINROW_EVAL=1",
    "kboth": KBOTH,
    "kboth-lean": KBOTH_LEAN,
    "kboth-lean-sq2": KBOTH_LEAN + " RAPFI_ABL_SQUARE2=1",
}


def die(msg):
    print(f"rapfi-ablation.py: {msg}", file=sys.stderr)
    sys.exit(1)


def edit(name, text, edits):
    """The file's source with the edits made, or a reason why not."""
    for kind, anchor, new, *count in edits:
        if kind == "replace":
            if text.count(anchor) != count[0]:
                die(f"{name}: {text.count(anchor)} times {anchor!r}, expected {count[0]} (another Rapfi version?)")
            text = text.replace(anchor, new)
            continue
        lines = text.split("\n")
        hits = [i for i, line in enumerate(lines) if line.strip().startswith(anchor)]
        if len(hits) != 1:
            die(f"{name}: {len(hits)} lines begin with {anchor!r}, expected 1 (another Rapfi version?)")
        i = hits[0]
        if kind == "start":
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines[i] = indent + new + lines[i].strip()[len(anchor) :]
        elif kind == "after":
            lines.insert(i + 1, new)
        else:
            lines.insert(i, new)
        text = "\n".join(lines)
    return text


def kinrow_weights(kinrow_src, scale):
    """The C++ constants of kinrow's weights, read from its source."""
    def read(rel):
        try:
            with open(os.path.join(kinrow_src, rel)) as f:
                return f.read()
        except OSError as e:
            die(f"--kinrow-src: cannot read {rel}: {e}")

    def find(pattern, text, what):
        m = re.search(pattern, text, re.S)
        if not m:
            die(f"--kinrow-src: {what} not found (kinrow's source changed?)")
        return m

    def ints(text):
        return ", ".join(str(int(x)) for x in text.split(",") if x.strip())

    evalrs = read("src/search/gomoku/eval.rs")
    searchrs = read("src/search/gomoku/search.rs")
    w = find(r"pub const WEIGHTS: Weights = Weights \{(.*?)\n\};", evalrs, "WEIGHTS in eval.rs").group(1)
    out = []
    for side, cxx in (("to_move", "TO_MOVE"), ("waiting", "WAITING")):
        m = find(side + r": Cells \{\s*pattern: \[([^\]]*)\],\s*threat: \[([^\]]*)\],\s*crossing: (-?\d+)", w, f"{side} in WEIGHTS")
        out.append(f"constexpr Cells {cxx} {{{{{ints(m.group(1))}}}, {{{ints(m.group(2))}}}, {int(m.group(3))}}};")
    for name in ("mover", "waiter"):
        values = ints(find(name + r": \[([^\]]*)\]", w, name).group(1))
        out.append(f"constexpr int {name.upper()}[9] = {{{values}}};")
    tempo = int(find(r"tempo: (-?\d+)", w, "tempo").group(1))
    out.append(f"constexpr int TEMPO = {tempo};")
    for name in ("ATTACK", "DEFENCE"):
        m = find(r"const " + name + r": \[i32; Threat::COUNT\] = \[([^\]]*)\];", searchrs, f"{name} in search.rs")
        out.append(f"constexpr int {name}[9] = {{{ints(m.group(1))}}};")
    out.append(f"/// kinrow's evaluation units to Rapfi's: Rapfi's win rate is sigmoid(eval / 200), kinrow's sigmoid(eval / {scale:g}).")
    out.append(f"constexpr double SCALE = 200.0 / {scale!r};")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rapfi-src", required=True, help="Rapfi's source: the repository or its Rapfi/ folder")
    ap.add_argument("--out", required=True, help="folder for the edited copy, the build and the wrappers")
    ap.add_argument("--kinrow-src", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."),
                    help="kinrow's source, for its weights (default: this repository)")
    ap.add_argument("--kinrow-scale", type=float, default=1410.0,
                    help="the scale of kinrow's evaluation fit: sigmoid(eval / K) (default 1410)")
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

    for rel, edits in EDITS.items():
        path = os.path.join(copy, rel)
        try:
            with open(path) as f:
                text = f.read()
        except OSError as e:
            die(f"{rel}: {e}")
        with open(path, "w") as f:
            f.write(edit(rel, text, edits))
    with open(os.path.join(copy, "game", "ablation.h"), "w") as f:
        f.write(ABLATION_H)
    with open(os.path.join(copy, "game", "kinrow_terms.h"), "w") as f:
        f.write(TERMS.replace("{weights}", kinrow_weights(os.path.abspath(a.kinrow_src), a.kinrow_scale)))

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
