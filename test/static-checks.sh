#!/usr/bin/env bash
# `npm test`'s first step: typecheck and lint (then the formatter's check) at once. Each is one process on one
# core, so on two cores they take about the time of the longer one (lint). The dashboard is built for the end-to-end tests as soon as the
# typecheck passes, on the core lint leaves free (test/e2e/global-setup.ts then finds the build fresh).
set -uo pipefail
cd "$(dirname "$0")/.."

(npm run --silent typecheck && npx vite build --logLevel warn) &
typecheck_and_build=$!
npm run --silent lint && npm run --silent format:check
lint=$?
wait "$typecheck_and_build"
typecheck_and_build=$?
[ "$lint" -eq 0 ] && [ "$typecheck_and_build" -eq 0 ]
