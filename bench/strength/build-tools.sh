#!/usr/bin/env bash
# Builds the external programs the strength harness runs, from their sources, and installs
# them into one folder: pbrain-rapfi (Rapfi), c-gomoku-cli and, if asked, cutechess-cli.
# Usage: see --help. The sources are fetched beforehand (git clone, or an archive); this
# script neither downloads anything nor changes the source folders (it builds elsewhere).
#
# Built and tested with these commits (g++ 12.2, CMake 3.25.1, Qt 6.4.2; Debian 12):
#   Rapfi         https://github.com/dhbloo/rapfi           3aedf3a2ab0ab710a9f3d00e57d5287ceb864894
#   c-gomoku-cli  https://github.com/nkg114mc/c-gomoku-cli  cdacd8552ff4148c91f132c60961c6a424cdcc71
#   cutechess     https://github.com/cutechess/cutechess    5e84232be4546aaedc9d87a96c91867a1da06ada
# Other commits may need other flags.
#
# How each is built, and why:
#   Rapfi: CMake Release of its Rapfi/ subfolder with NO_COMMAND_MODULES=ON (the Gomocup
#     brain only; the command modules are the tools for training and databases) and with
#     USE_AVX512=OFF and USE_VNNI=OFF, so the binary runs on any x86-64 with AVX2 (Rapfi's
#     CMake would otherwise enable whatever the build host has). AVX2 and BMI2 follow the
#     host. No network weights are needed: without a config.toml Rapfi uses its built-in
#     classical configuration, which is what the harness measures against, so this script
#     refuses to install beside a config.toml.
#   c-gomoku-cli: its own Makefile (a static binary), with -fpermissive -include cstring
#     added to CXXFLAGS: without them g++ 12 rejects the 2021 sources.
#   cutechess-cli: CMake Release, WITH_TESTS=OFF, only the cli target. Its CMake asks for the
#     Qt 6 Core, Gui, Widgets, Concurrent, Svg and PrintSupport modules even for the cli
#     (Debian: qt6-base-dev and qt6-svg-dev). The harness itself does not use it.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: build-tools.sh --rapfi-src DIR --cli-src DIR [--cutechess-src DIR] --out BINDIR [options]

Builds Rapfi (pbrain-rapfi), c-gomoku-cli and, with --cutechess-src, cutechess-cli, checks
that each runs, and installs them into BINDIR. Sources are not modified: the builds happen in
a separate build folder.

  --rapfi-src DIR      Rapfi's source: the repository (with its Rapfi/ subfolder) or Rapfi/ itself
  --cli-src DIR        c-gomoku-cli's source: the repository (with src/Makefile)
  --cutechess-src DIR  cutechess's source: the repository (optional; needs Qt 6)
  --out BINDIR         where to install the binaries (created if missing)
  --build DIR          build folder (default: a temporary folder, removed after a success;
                       kept, with each build's log, after a failure)
  --jobs N             parallel compile jobs (default: the number of cores)
  -h, --help           this text
EOF
}

die() {
    echo "build-tools.sh: $*" >&2
    exit 2
}

rapfi_src="" cli_src="" cutechess_src="" out="" build="" jobs=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rapfi-src) rapfi_src="${2:?--rapfi-src needs a folder}"; shift 2 ;;
        --cli-src) cli_src="${2:?--cli-src needs a folder}"; shift 2 ;;
        --cutechess-src) cutechess_src="${2:?--cutechess-src needs a folder}"; shift 2 ;;
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --build) build="${2:?--build needs a folder}"; shift 2 ;;
        --jobs) jobs="${2:?--jobs needs a count}"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

[ -n "$rapfi_src" ] || die "--rapfi-src DIR is required"
[ -n "$cli_src" ] || die "--cli-src DIR is required"
[ -n "$out" ] || die "--out BINDIR is required"
if [ -z "$jobs" ]; then
    jobs="$(nproc 2>/dev/null || echo 1)"
fi
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive count"

# The sources: accept Rapfi's repository or its Rapfi/ subfolder (the one with the CMakeLists).
[ -d "$rapfi_src" ] || die "--rapfi-src '$rapfi_src' is not a folder"
rapfi_src="$(realpath "$rapfi_src")"
if [ -f "$rapfi_src/Rapfi/CMakeLists.txt" ]; then
    rapfi_src="$rapfi_src/Rapfi"
fi
grep -q 'pbrain-rapfi' "$rapfi_src/CMakeLists.txt" 2>/dev/null \
    || die "--rapfi-src: no Rapfi CMakeLists.txt (one naming pbrain-rapfi) in '$rapfi_src' or its Rapfi/ subfolder"
[ -d "$cli_src" ] || die "--cli-src '$cli_src' is not a folder"
cli_src="$(realpath "$cli_src")"
[ -f "$cli_src/src/Makefile" ] || die "--cli-src: no src/Makefile in '$cli_src' (give c-gomoku-cli's repository)"
if [ -n "$cutechess_src" ]; then
    [ -d "$cutechess_src" ] || die "--cutechess-src '$cutechess_src' is not a folder"
    cutechess_src="$(realpath "$cutechess_src")"
    grep -q 'cutechess-cli' "$cutechess_src/CMakeLists.txt" 2>/dev/null \
        || die "--cutechess-src: no cutechess CMakeLists.txt (one naming cutechess-cli) in '$cutechess_src'"
fi

# The tools. Each missing one is a one-line error before anything is built.
for tool in cmake g++ make; do
    command -v "$tool" >/dev/null || die "'$tool' not found on PATH (Debian: apt-get install cmake g++ make)"
done

# Qt 6 for cutechess: the CMake package of each module its CMakeLists asks for, looked up
# where CMake looks (CMAKE_PREFIX_PATH, then the usual system folders).
qt_module_found() {
    local module="$1" prefix dir prefixes
    local dirs=()
    if [ -n "${CMAKE_PREFIX_PATH:-}" ]; then
        IFS=: read -r -a prefixes <<<"$CMAKE_PREFIX_PATH"
        for prefix in "${prefixes[@]}"; do
            dirs+=("$prefix" "$prefix/lib/cmake" "$prefix/lib64/cmake")
        done
    fi
    dirs+=(/usr/lib/*/cmake /usr/lib/cmake /usr/lib64/cmake /usr/local/lib/cmake /usr/local/lib/*/cmake)
    for dir in "${dirs[@]}"; do
        [ -f "$dir/$module/${module}Config.cmake" ] && return 0
    done
    return 1
}
if [ -n "$cutechess_src" ]; then
    for module in Qt6 Qt6Core Qt6Gui Qt6Widgets Qt6Concurrent Qt6Svg Qt6PrintSupport; do
        qt_module_found "$module" \
            || die "Qt 6 module '$module' not found (Debian: apt-get install qt6-base-dev qt6-svg-dev; or set CMAKE_PREFIX_PATH)"
    done
fi

# A config.toml beside pbrain-rapfi would replace the built-in classical configuration the
# harness measures against: refuse now, before the builds, rather than install beside it.
if [ -e "$out/config.toml" ]; then
    die "'$out/config.toml' exists: Rapfi would load it instead of its built-in classical configuration (move it away, or choose another --out)"
fi

# Where the builds happen. A temporary folder is removed only after a success, so the logs
# of a failed build stay readable.
if [ -z "$build" ]; then
    build="$(mktemp -d "${TMPDIR:-/tmp}/kinrow-build-tools.XXXXXX")"
    remove_build=1
else
    mkdir -p "$build"
    build="$(realpath "$build")"
    remove_build=0
fi
mkdir -p "$out"
out="$(realpath "$out")"

# Runs a build step with its output in a log; on failure shows the log's end and stops.
step() {
    local log="$1"
    shift
    if ! "$@" >>"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "build-tools.sh: failed: $* (whole log: $log)" >&2
        exit 1
    fi
}

# A note if a source is a git checkout at another commit than the one tested above.
note_commit() {
    local name="$1" dir="$2" tested="$3" head
    if head="$(git -C "$dir" rev-parse HEAD 2>/dev/null)" && [ "$head" != "$tested" ]; then
        echo "build-tools.sh: note: $name is at commit $head, not the tested $tested" >&2
    fi
    return 0
}

# --- Rapfi ---
note_commit Rapfi "$rapfi_src" 3aedf3a2ab0ab710a9f3d00e57d5287ceb864894
echo "build-tools.sh: building Rapfi (log: $build/rapfi.log)"
step "$build/rapfi.log" cmake -S "$rapfi_src" -B "$build/rapfi" \
    -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON -DUSE_AVX512=OFF -DUSE_VNNI=OFF
step "$build/rapfi.log" cmake --build "$build/rapfi" --parallel "$jobs"
[ -x "$build/rapfi/pbrain-rapfi" ] || die "the Rapfi build made no pbrain-rapfi (see $build/rapfi.log)"
# It must answer the Gomocup protocol with its built-in configuration: run it from an empty
# folder (Rapfi also looks for config.toml in its working folder) and expect OK, a move, and
# no "Load config from" message.
mkdir -p "$build/rapfi-check"
reply="$(cd "$build/rapfi-check" && printf 'START 15\nBEGIN\nEND\n' | timeout 120 "$build/rapfi/pbrain-rapfi" 2>&1)" \
    || die "pbrain-rapfi failed its check (START 15, BEGIN, END); it said: $reply"
grep -qx 'OK' <<<"$reply" || die "pbrain-rapfi did not answer START 15 with OK; it said: $reply"
grep -qE '^[0-9]+,[0-9]+$' <<<"$reply" || die "pbrain-rapfi did not answer BEGIN with a move; it said: $reply"
if grep -q 'Load config from' <<<"$reply"; then
    die "pbrain-rapfi loaded a config file instead of its built-in configuration; it said: $reply"
fi
install -m 755 "$build/rapfi/pbrain-rapfi" "$out/pbrain-rapfi"
echo "build-tools.sh: installed $out/pbrain-rapfi (answers START/BEGIN with OK and $(grep -E '^[0-9]+,[0-9]+$' <<<"$reply" | head -n 1))"

# --- c-gomoku-cli ---
note_commit c-gomoku-cli "$cli_src" cdacd8552ff4148c91f132c60961c6a424cdcc71
echo "build-tools.sh: building c-gomoku-cli (log: $build/c-gomoku-cli.log)"
# Its Makefile builds in the current folder and adds to CXXFLAGS (+=), so a copy of src/ is
# built and the extra flags come from the environment.
rm -rf "$build/c-gomoku-cli"
cp -R "$cli_src/src" "$build/c-gomoku-cli"
step "$build/c-gomoku-cli.log" env CXXFLAGS="-fpermissive -include cstring" \
    make -C "$build/c-gomoku-cli" -j "$jobs"
[ -x "$build/c-gomoku-cli/c-gomoku-cli" ] || die "the c-gomoku-cli build made no c-gomoku-cli (see $build/c-gomoku-cli.log)"
# Without engines it must refuse with its own message (and not crash).
reply="$("$build/c-gomoku-cli/c-gomoku-cli" 2>&1 || true)"
grep -q 'at least 2 engines are needed' <<<"$reply" \
    || die "c-gomoku-cli does not run as expected (without arguments it said: $reply)"
install -m 755 "$build/c-gomoku-cli/c-gomoku-cli" "$out/c-gomoku-cli"
echo "build-tools.sh: installed $out/c-gomoku-cli"

# --- cutechess-cli ---
if [ -n "$cutechess_src" ]; then
    note_commit cutechess "$cutechess_src" 5e84232be4546aaedc9d87a96c91867a1da06ada
    echo "build-tools.sh: building cutechess-cli (log: $build/cutechess.log; a few minutes)"
    step "$build/cutechess.log" cmake -S "$cutechess_src" -B "$build/cutechess" \
        -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF
    step "$build/cutechess.log" cmake --build "$build/cutechess" --target cli --parallel "$jobs"
    [ -x "$build/cutechess/cutechess-cli" ] || die "the cutechess build made no cutechess-cli (see $build/cutechess.log)"
    version="$("$build/cutechess/cutechess-cli" --version 2>&1 | head -n 1)" \
        || die "cutechess-cli --version failed: $version"
    install -m 755 "$build/cutechess/cutechess-cli" "$out/cutechess-cli"
    echo "build-tools.sh: installed $out/cutechess-cli ($version)"
fi

# Nothing may have put a config.toml beside pbrain-rapfi meanwhile.
[ ! -e "$out/config.toml" ] || die "'$out/config.toml' appeared beside pbrain-rapfi: remove it before using the harness"

if [ "$remove_build" -eq 1 ]; then
    rm -rf "$build"
fi
echo "build-tools.sh: done; binaries in $out"
