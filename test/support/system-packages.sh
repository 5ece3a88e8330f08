#!/usr/bin/env bash
# Runs before `npm test` (the `pretest` script): finds, or installs from Debian's packages, the
# programs the suite drives besides Node: Chromium for the browser tests (through playwright-core,
# never a downloaded browser), libfaketime for the runs under a faked clock, and curl and jq, which
# the README's walk-throughs use as printed (test/docs/docs-walkthroughs.platform.test.ts).
set -euo pipefail

needed=()
[ -x /usr/bin/chromium ] || needed+=(chromium)
command -v faketime >/dev/null 2>&1 || needed+=(faketime)
command -v curl >/dev/null 2>&1 || needed+=(curl)
command -v jq >/dev/null 2>&1 || needed+=(jq)
[ ${#needed[@]} -eq 0 ] && exit 0

echo "The test suite needs Debian's ${needed[*]}; installing with apt-get." >&2
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "Cannot install ${needed[*]}: run as root or with sudo, or install them yourself (apt-get install ${needed[*]})." >&2
  exit 1
fi
if ! "${as_root[@]}" apt-get install -y --no-install-recommends "${needed[@]}"; then
  "${as_root[@]}" apt-get update
  "${as_root[@]}" apt-get install -y --no-install-recommends "${needed[@]}"
fi
