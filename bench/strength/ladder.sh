#!/usr/bin/env bash
# The depth ladder: kinrow against Rapfi limited to max_depth 1, 2, 3, ... (vs-rapfi.sh for
# each), up to the first depth where kinrow scores under 50%. Usage: see --help.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
    cat <<'EOF'
Usage: ladder.sh --kinrow PATH --rapfi PATH [--from D] [--to D] [--all] [--out DIR]
                 [other vs-rapfi.sh options] [-- extra c-gomoku-cli arguments]

Runs vs-rapfi.sh with Rapfi's --depth D for D = FROM, FROM+1, ..., TO, each into DIR/depth-D,
and stops after the first depth at which kinrow scores under 50% (unless --all). Prints a
table (also written to DIR/ladder.txt) and the ladder's result: the highest depth at which
kinrow scored at least 50%, counting only depths below the first one it failed at.

  --from D     first depth (default 1)
  --to D       last depth (default 12)
  --all        play every depth from FROM to TO, even after a failure
  --out DIR    output folder (default: strength-out/ladder-<UTC time> in the current folder)
  every other option goes to vs-rapfi.sh (--kinrow, --rapfi, --cli, --board, --rule, --turn,
  --match, --pairs (default there 13; a ladder may use fewer), --openings, --threads,
  --concurrency, ...); --depth is set by the ladder.
EOF
}

die() {
    echo "ladder.sh: $*" >&2
    exit 2
}

from=1 to=12 all=0 out="" pass=()
while [ $# -gt 0 ]; do
    case "$1" in
        --from) from="${2:?--from needs a depth}"; shift 2 ;;
        --to) to="${2:?--to needs a depth}"; shift 2 ;;
        --all) all=1; shift ;;
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --depth) die "--depth is set by the ladder (use --from and --to)" ;;
        -h | --help) usage; exit 0 ;;
        --) pass+=("$@"); break ;;
        *) pass+=("$1"); shift ;;
    esac
done
[[ "$from" =~ ^[1-9][0-9]*$ ]] || die "--from must be a positive depth"
[[ "$to" =~ ^[1-9][0-9]*$ ]] || die "--to must be a positive depth"
[ "$from" -le "$to" ] || die "--from must not be above --to"
if [ -z "$out" ]; then
    out="strength-out/ladder-$(date -u +%Y%m%dT%H%M%SZ)"
fi
mkdir -p "$out"
out="$(realpath "$out")"

table="$out/ladder.txt"
printf '%-6s %-6s %-9s %-7s %s\n' depth games W-L-D score Elo >"$table"
best="" failed=""
for ((depth = from; depth <= to; depth++)); do
    "$here/vs-rapfi.sh" --depth "$depth" --out "$out/depth-$depth" "${pass[@]}" >/dev/null
    summary="$out/depth-$depth/summary.txt"
    # The line summary.py writes: "NAME: N games, W-L-D w-l-d, score 0.xxx (xx.x%)".
    line="$(grep -m1 ' games, W-L-D ' "$summary")" || die "no score in $summary"
    games="$(sed -E 's/.*: ([0-9]+) games,.*/\1/' <<<"$line")"
    wld="$(sed -E 's/.*W-L-D ([0-9]+-[0-9]+-[0-9]+),.*/\1/' <<<"$line")"
    score="$(sed -E 's/.*score ([0-9.]+) .*/\1/' <<<"$line")"
    # "Elo +89 +- 144 (95% interval -40 to +248, trinomial)" -> "+89 +- 144 [-40, +248]";
    # "Elo -inf (every game lost; 95% upper bound -365)" -> "-inf (95% upper bound -365)".
    elo="$(grep -m1 '^Elo ' "$summary" | sed -E 's/^Elo //;
        s/ \(95% interval ([^ ]+) to ([^ ]+), trinomial\)/ [\1, \2]/;
        s/ \(every game [a-z]+; (95% [a-z]+ bound [^ ]+)\)/ (\1)/')"
    printf '%-6s %-6s %-9s %-7s %s\n' "$depth" "$games" "$wld" "$score" "$elo" >>"$table"
    tail -n 1 "$table"
    if awk -v s="$score" 'BEGIN { exit !(s >= 0.5) }'; then
        [ -n "$failed" ] || best="$depth"
    else
        [ -n "$failed" ] || failed="$depth"
        [ "$all" -eq 1 ] || break
    fi
done

{
    if [ -n "$best" ]; then
        echo "ladder: kinrow scores >= 50% up to Rapfi max_depth $best${failed:+ (under 50% at depth $failed)}"
    else
        echo "ladder: kinrow scores under 50% already at Rapfi max_depth $from"
    fi
    echo "load at the end: $(uptime)"
} >>"$table"
cat "$table"
