#!/usr/bin/env bash
# kinrow against Rapfi, refereed by c-gomoku-cli: balanced opening pairs, SGF records, a summary.
# Usage: see --help. Needs the three programs already built (README.md says where from).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
    cat <<'EOF'
Usage: vs-rapfi.sh --kinrow PATH --rapfi PATH [options] [-- extra c-gomoku-cli arguments]

Plays kinrow (as a Gomocup brain, `PATH gomocup`) against Rapfi with Rapfi's built-in
classical evaluation, refereed by c-gomoku-cli. Each opening is played twice, once with each
engine as black (c-gomoku-cli -repeat). Writes into the output folder: games.sgf, games.pgn,
cli.log (c-gomoku-cli's output), command.txt (the exact command), machine.txt (load before
and after) and summary.txt (summary.py: W-L-D, score, Elo with its 95% error bar).

  --kinrow PATH       the kinrow binary (required)
  --rapfi PATH        Rapfi's Gomocup brain, pbrain-rapfi (required)
  --cli PATH          c-gomoku-cli (default: c-gomoku-cli on PATH)
  --board N           board size N x N (default 15)
  --rule RULE         freestyle, exact (five exactly) or renju (default freestyle)
  --turn SECONDS      time limit a move (default 1)
  --match SECONDS     time limit a game for each side (default: 1000, or 300 turns if longer)
  --pairs N           openings to play, each twice (default 13, so 26 games)
  --openings FILE     opening file, c-gomoku-cli offset notation
                      (default: openings/classical26.txt beside this script)
  --depth N           Rapfi's max_depth (INFO max_depth N); default: no limit
  --threads N         Rapfi's threads (INFO thread_num; default 1)
  --kinrow-threads N  kinrow's threads (INFO thread_num; default: not sent, so 1)
  --concurrency J     games at once (default 1; more games than cores distorts the timing)
  --out DIR           output folder (default: strength-out/rapfi-<UTC time> in the current folder)
  --kinrow-name NAME  kinrow's name in the records (default kinrow)
  --rapfi-name NAME   Rapfi's name in the records (default rapfi)
  --allow-rapfi-config
                      run even if a config.toml lies beside pbrain-rapfi (Rapfi would load it
                      instead of its built-in classical configuration)
  -h, --help          this text
EOF
}

die() {
    echo "vs-rapfi.sh: $*" >&2
    exit 2
}

kinrow="" rapfi="" cli="c-gomoku-cli" board=15 rule=freestyle turn=1 match="" pairs=13
openings="$here/openings/classical26.txt" depth="" threads=1 kthreads="" concurrency=1 out=""
kname=kinrow rname=rapfi allow_config=0 extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --kinrow) kinrow="${2:?--kinrow needs a path}"; shift 2 ;;
        --rapfi) rapfi="${2:?--rapfi needs a path}"; shift 2 ;;
        --cli) cli="${2:?--cli needs a path}"; shift 2 ;;
        --board) board="${2:?--board needs a size}"; shift 2 ;;
        --rule) rule="${2:?--rule needs a rule}"; shift 2 ;;
        --turn) turn="${2:?--turn needs seconds}"; shift 2 ;;
        --match) match="${2:?--match needs seconds}"; shift 2 ;;
        --pairs) pairs="${2:?--pairs needs a count}"; shift 2 ;;
        --openings) openings="${2:?--openings needs a file}"; shift 2 ;;
        --depth) depth="${2:?--depth needs a depth}"; shift 2 ;;
        --threads) threads="${2:?--threads needs a count}"; shift 2 ;;
        --kinrow-threads) kthreads="${2:?--kinrow-threads needs a count}"; shift 2 ;;
        --concurrency) concurrency="${2:?--concurrency needs a count}"; shift 2 ;;
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --kinrow-name) kname="${2:?--kinrow-name needs a name}"; shift 2 ;;
        --rapfi-name) rname="${2:?--rapfi-name needs a name}"; shift 2 ;;
        --allow-rapfi-config) allow_config=1; shift ;;
        -h | --help) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]]; }
is_seconds() { [[ "$1" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] && awk -v t="$1" 'BEGIN { exit !(t > 0) }'; }

[ -n "$kinrow" ] || die "--kinrow PATH is required"
[ -n "$rapfi" ] || die "--rapfi PATH is required"
for program in "$kinrow" "$rapfi"; do
    if [ ! -f "$program" ] || [ ! -x "$program" ]; then
        die "'$program' is not an executable file"
    fi
done
if [[ "$cli" == */* ]]; then
    [ -x "$cli" ] || die "'$cli' is not an executable file"
else
    command -v "$cli" >/dev/null || die "'$cli' is not on PATH (give --cli PATH)"
fi
# c-gomoku-cli splits an engine's command at spaces and runs it from the program's folder.
# Links are kept (-s): a wrapper behind a link may read its own name.
kinrow="$(realpath -s "$kinrow")"
rapfi="$(realpath -s "$rapfi")"
for program in "$kinrow" "$rapfi"; do
    [[ "$program" != *" "* ]] || die "'$program': c-gomoku-cli cannot run a path with a space"
done
if ! is_count "$board" || [ "$board" -lt 5 ] || [ "$board" -gt 22 ]; then
    die "--board must be from 5 to 22 (c-gomoku-cli's range)"
fi
case "$rule" in
    freestyle) rule_code=0 ;;
    exact) rule_code=1 ;;
    renju) rule_code=4 ;;
    *) die "--rule must be freestyle, exact or renju" ;;
esac
is_seconds "$turn" || die "--turn must be a positive number of seconds"
if [ -z "$match" ]; then
    match="$(awk -v t="$turn" 'BEGIN { m = 300 * t; print (m > 1000 ? m : 1000) }')"
fi
is_seconds "$match" || die "--match must be a positive number of seconds"
is_count "$pairs" || die "--pairs must be a positive count"
[ -z "$depth" ] || is_count "$depth" || die "--depth must be a positive depth"
is_count "$threads" || die "--threads must be a positive count"
[ -z "$kthreads" ] || is_count "$kthreads" || die "--kinrow-threads must be a positive count"
is_count "$concurrency" || die "--concurrency must be a positive count"
[[ "$kname" =~ ^[A-Za-z0-9_.+-]+$ ]] || die "--kinrow-name: letters, digits and _.+- only"
[[ "$rname" =~ ^[A-Za-z0-9_.+-]+$ ]] || die "--rapfi-name: letters, digits and _.+- only"
[ "$kname" != "$rname" ] || die "the two names must differ"

# Rapfi prefers a config.toml in its working folder (c-gomoku-cli sets it to the program's
# folder) or beside its binary to the built-in classical configuration this harness means.
if [ -e "$(dirname "$rapfi")/config.toml" ] && [ "$allow_config" -eq 0 ]; then
    die "$(dirname "$rapfi")/config.toml exists: Rapfi would load it instead of its built-in classical configuration (move it away, or give --allow-rapfi-config)"
fi

openings="$(realpath "$openings")"
python3 "$here/openings.py" check "$openings" --size "$board" >/dev/null || die "bad openings file '$openings'"
available="$(grep -c '' "$openings")"
[ "$pairs" -le "$available" ] || die "--pairs $pairs: '$openings' has only $available openings"

if [ -z "$out" ]; then
    out="strength-out/rapfi-$(date -u +%Y%m%dT%H%M%SZ)"
fi
mkdir -p "$out"
out="$(realpath "$out")"
for file in games.sgf games.pgn; do
    [ ! -e "$out/$file" ] || die "'$out/$file' exists (c-gomoku-cli would append to it): choose another --out"
done

rapfi_options=("name=$rname" "cmd=$rapfi" "thread=$threads")
kinrow_options=("name=$kname" "cmd=$kinrow gomocup")
[ -z "$kthreads" ] || kinrow_options+=("thread=$kthreads")
[ -z "$depth" ] || rapfi_options+=("depth=$depth")
command=("$cli"
    -engine "${kinrow_options[@]}"
    -engine "${rapfi_options[@]}"
    -each "tc=$match/$turn"
    -boardsize "$board" -rule "$rule_code"
    -games $((2 * pairs)) -repeat -concurrency "$concurrency"
    -openings "file=$openings" order=sequential
    -sgf "$out/games.sgf" -pgn "$out/games.pgn"
    "${extra[@]}")

printf '%q ' "${command[@]}" >"$out/command.txt"
echo >>"$out/command.txt"
{
    echo "start: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uptime)"
    echo "cores: $(nproc)"
} >"$out/machine.txt"
echo "vs-rapfi.sh: $((2 * pairs)) games, ${board}x$board $rule, $turn s a move, Rapfi ${depth:+max_depth $depth, }$threads thread(s); output in $out"

status=0
"${command[@]}" >"$out/cli.log" 2>&1 || status=$?
echo "end: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uptime)" >>"$out/machine.txt"
if [ "$status" -ne 0 ]; then
    tail -n 20 "$out/cli.log" >&2
    echo "vs-rapfi.sh: c-gomoku-cli exited with status $status (see $out/cli.log)" >&2
    exit 1
fi

{
    if [ -e "$(dirname "$rapfi")/config.toml" ]; then
        echo "Rapfi: $(dirname "$rapfi")/config.toml (not the built-in classical configuration), ${depth:+max_depth $depth, }$threads thread(s)"
    else
        echo "Rapfi: classical (built-in configuration), ${depth:+max_depth $depth, }$threads thread(s)"
    fi
    echo "kinrow: ${kthreads:-1} thread(s)"
    echo "Games: ${board}x$board $rule, $turn s a move, $match s a game, $pairs openings x 2 colours from $(basename "$openings")"
    turn_ms="$(awk -v t="$turn" 'BEGIN { printf "%d", t * 1000 }')"
    python3 "$here/summary.py" --engine "$kname" --turn-ms "$turn_ms" "$out/games.sgf"
    # c-gomoku-cli's own lines about an engine's fault (an error reply, a crash, a timeout,
    # an illegal move) name the engine, which its SGF result does not always get right.
    pattern='^\[[0-9]+\] engine '
    if grep -qE "$pattern" "$out/cli.log"; then
        echo "c-gomoku-cli's fault messages ($(grep -cE "$pattern" "$out/cli.log")):"
        grep -E "$pattern" "$out/cli.log" | sed 's/^/  /'
    fi
    sed 's/^/Load: /' "$out/machine.txt"
} >"$out/summary.txt"
cat "$out/summary.txt"
