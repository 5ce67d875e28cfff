#!/usr/bin/env bash
# What the tests need besides the Python packages of '.[test]': Debian's chromium (the tests of
# the advisor page drive it with Playwright; no browser is downloaded) and node (the tests of the
# JavaScript reader). Installs the missing ones with apt-get (quiet; sudo when not root) and does
# nothing when both are there. The README's test command and .ci/run call this script.
# TUTTO_SIM_CHROMIUM and TUTTO_SIM_NODE name the programs looked for (default /usr/bin/chromium,
# the browser the tests start, and node on PATH).
set -euo pipefail
chromium=${TUTTO_SIM_CHROMIUM:-/usr/bin/chromium}
node=${TUTTO_SIM_NODE:-node}
need=()
[ -x "$chromium" ] || need+=(chromium)
command -v "$node" >/dev/null 2>&1 || need+=(nodejs)
[ "${#need[@]}" -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "test_deps.sh: installing ${need[*]} (Debian's packages, apt-get${SUDO:+ with sudo}): the tests of the advisor page and the JavaScript reader need them" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
