#!/usr/bin/env bash
# The routing and directions tests again with the whole process tree's clock faked (libfaketime),
# at night in New York and in London: every test must pass whatever the wall clock says, so none
# may lean on "now" (a departure left out, a window assumed open). Part of `npm test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

tests=(test/routing test/multimodal test/explain test/platform/directions.test.ts test/platform/directions-quality.test.ts test/platform/directions-time-rules.test.ts)
# UTC instants: 03:52 in New York (EDT), 23:30 in London (GMT).
for instant in '2026-06-15 07:52:00' '2026-12-01 23:30:00'; do
  echo "Routing, directions, multi-modal and explain tests with the clock at $instant UTC"
  TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 faketime "$instant" npx vitest run "${tests[@]}"
done
