#!/usr/bin/env bash
# The routing and directions tests again with the whole process tree's clock faked (libfaketime),
# at night in New York and in London: every test must pass whatever the wall clock says, so none
# may lean on "now" (a departure left out, a window assumed open). Part of `npm test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The unit tests of routing, multi-modal and explain, and the directions endpoint's tests on the
# local platform (test/multimodal's own platform test is not among them).
unit_tests=(test/routing/ test/multimodal/ test/explain/)
platform_tests=(test/directions/directions.platform.test.ts test/directions/directions-quality.platform.test.ts test/directions/directions-time-rules.platform.test.ts)
# UTC instants: 03:52 in New York (EDT), 23:30 in London (GMT).
for instant in '2026-06-15 07:52:00' '2026-12-01 23:30:00'; do
  echo "Routing, directions, multi-modal and explain tests with the clock at $instant UTC"
  TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 faketime "$instant" npx vitest run --project unit "${unit_tests[@]}"
  TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 faketime "$instant" npx vitest run --project platform "${platform_tests[@]}"
done
