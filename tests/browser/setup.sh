#!/usr/bin/env bash
# Installs what the browser test needs, when it is missing: Debian's chromium (as root, with
# apt-get) and the Python playwright package in a virtual environment of its own. Nothing is
# downloaded by playwright itself: the test drives the system browser.
#
# The environment lives in $KINROW_BROWSER_VENV, by default ~/.cache/kinrow/browser-venv, so
# that fresh clones on one machine share it. Prints the venv's python on its last line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${KINROW_BROWSER_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kinrow/browser-venv}"
chromium="${KINROW_CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "browser setup: installing Debian's chromium" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq chromium >&2
  else
    echo "browser setup: $chromium is missing; install Debian's chromium (apt-get install chromium) as root" >&2
    exit 1
  fi
fi

if ! "$venv/bin/python" -c "import playwright" >/dev/null 2>&1; then
  echo "browser setup: installing playwright (Python) into $venv" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt" >&2
fi
echo "$venv/bin/python"
