#!/usr/bin/env bash
# One kinrow against another (a new build against an old one), refereed by `kinrow match`,
# over the same opening pairs as vs-rapfi.sh. Usage: see --help.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
    cat <<'EOF'
Usage: vs-kinrow.sh --new PATH --old PATH [options] [-- extra kinrow match arguments]

Plays the kinrow binary NEW against the kinrow binary OLD with `kinrow match` (NEW's own
referee), each opening once with each colour, and reports NEW's score. Writes into the output
folder: openings.txt (the openings as kinrow positions), games.sgf, games.jsonl, match.log
(kinrow match's report, with its Elo and pentanomial statistics), command.txt,
machine.txt (load before and after) and summary.txt (summary.py over the SGF, the same
table as vs-rapfi.sh, then kinrow match's own summary).

  --new PATH          the kinrow binary whose score is reported; it also referees (required)
  --old PATH          the kinrow binary it plays against (required)
  --board N           board size N x N (default 15; kinrow before 20x20 boards, 18499c9 and older, stops at 15)
  --rule RULE         freestyle or exact (default freestyle; sets option Rule of both)
  --movetime MS       time a move in milliseconds (default 1000)
  --pairs N           openings to play, each twice (default 13, so 26 games)
  --openings FILE     opening file, c-gomoku-cli offset notation
                      (default: openings/classical26.txt beside this script)
  --concurrency J     games at once (default 1)
  --out DIR           output folder (default: strength-out/kinrow-<UTC time> in the current folder)
  --new-threads N     NEW's option Threads (default: not set; kinrow before Threads has none)
  --old-threads N     OLD's option Threads (default: not set)
  --new-option N=V    one more option of NEW's, by name (repeatable; e.g. leaf_vcf_reach=3)
  --new-name NAME     (default new)
  --old-name NAME     (default old)
  -h, --help          this text
EOF
}

die() {
    echo "vs-kinrow.sh: $*" >&2
    exit 2
}

new="" old="" board=15 rule=freestyle movetime=1000 pairs=13
openings="$here/openings/classical26.txt" concurrency=1 out="" nname=new oname=old extra=()
nthreads="" othreads="" noptions=""
while [ $# -gt 0 ]; do
    case "$1" in
        --new) new="${2:?--new needs a path}"; shift 2 ;;
        --old) old="${2:?--old needs a path}"; shift 2 ;;
        --board) board="${2:?--board needs a size}"; shift 2 ;;
        --rule) rule="${2:?--rule needs a rule}"; shift 2 ;;
        --movetime) movetime="${2:?--movetime needs milliseconds}"; shift 2 ;;
        --pairs) pairs="${2:?--pairs needs a count}"; shift 2 ;;
        --openings) openings="${2:?--openings needs a file}"; shift 2 ;;
        --concurrency) concurrency="${2:?--concurrency needs a count}"; shift 2 ;;
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --new-threads) nthreads="${2:?--new-threads needs a count}"; shift 2 ;;
        --old-threads) othreads="${2:?--old-threads needs a count}"; shift 2 ;;
        --new-option)
            [[ "${2:-}" =~ ^[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.+-]+$ ]] || die "--new-option needs NAME=VALUE"
            noptions+=" option.$2"; shift 2 ;;
        --new-name) nname="${2:?--new-name needs a name}"; shift 2 ;;
        --old-name) oname="${2:?--old-name needs a name}"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]]; }

[ -n "$new" ] || die "--new PATH is required"
[ -n "$old" ] || die "--old PATH is required"
for program in "$new" "$old"; do
    if [ ! -f "$program" ] || [ ! -x "$program" ]; then
        die "'$program' is not an executable file"
    fi
done
# Links are kept (-s): a wrapper behind a link may read its own name.
new="$(realpath -s "$new")"
old="$(realpath -s "$old")"
if ! is_count "$board" || [ "$board" -lt 5 ] || [ "$board" -gt 26 ]; then
    die "--board must be from 5 to 26"
fi
case "$rule" in
    freestyle | exact) ;;
    *) die "--rule must be freestyle or exact" ;;
esac
is_count "$movetime" || die "--movetime must be a positive count of milliseconds"
is_count "$pairs" || die "--pairs must be a positive count"
is_count "$concurrency" || die "--concurrency must be a positive count"
[ -z "$nthreads" ] || is_count "$nthreads" || die "--new-threads must be a positive count"
[ -z "$othreads" ] || is_count "$othreads" || die "--old-threads must be a positive count"
[[ "$nname" =~ ^[A-Za-z0-9_.+-]+$ ]] || die "--new-name: letters, digits and _.+- only"
[[ "$oname" =~ ^[A-Za-z0-9_.+-]+$ ]] || die "--old-name: letters, digits and _.+- only"
[ "$nname" != "$oname" ] || die "the two names must differ"

if [ -z "$out" ]; then
    out="strength-out/kinrow-$(date -u +%Y%m%dT%H%M%SZ)"
fi
mkdir -p "$out"
out="$(realpath "$out")"
for file in games.sgf games.jsonl; do
    [ ! -e "$out/$file" ] || die "'$out/$file' exists (kinrow match would append to it): choose another --out"
done
python3 "$here/openings.py" kinrow "$openings" --size "$board" --count "$pairs" >"$out/openings.txt" ||
    die "bad openings file '$openings' (or fewer than $pairs openings)"

# Quoted for kinrow match's own word splitting: a path with spaces stays one word.
command=("$new" match
    --engine "cmd='$new' name=$nname option.Rule=$rule${nthreads:+ option.Threads=$nthreads}$noptions"
    --engine "cmd='$old' name=$oname option.Rule=$rule${othreads:+ option.Threads=$othreads}"
    --board "${board}x$board" --games $((2 * pairs)) --movetime "$movetime"
    --openings "file=$out/openings.txt" --concurrency "$concurrency"
    --sgf "$out/games.sgf" --jsonl "$out/games.jsonl"
    "${extra[@]}")

printf '%q ' "${command[@]}" >"$out/command.txt"
echo >>"$out/command.txt"
{
    echo "start: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uptime)"
    echo "cores: $(nproc)"
} >"$out/machine.txt"
echo "vs-kinrow.sh: $((2 * pairs)) games, ${board}x$board $rule, $movetime ms a move; output in $out"

status=0
"${command[@]}" >"$out/match.log" 2>&1 || status=$?
echo "end: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uptime)" >>"$out/machine.txt"
if [ "$status" -ne 0 ]; then
    tail -n 20 "$out/match.log" >&2
    echo "vs-kinrow.sh: kinrow match exited with status $status (see $out/match.log)" >&2
    exit 1
fi

{
    echo "Games: ${board}x$board $rule, $movetime ms a move, $pairs openings x 2 colours from $(basename "$openings")"
    python3 "$here/summary.py" --engine "$nname" "$out/games.sgf"
    echo "kinrow match's report:"
    sed -n '/^match completed/,$p' "$out/match.log"
    sed 's/^/Load: /' "$out/machine.txt"
} >"$out/summary.txt"
cat "$out/summary.txt"
