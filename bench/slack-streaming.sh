#!/usr/bin/env bash
# Slack streaming benchmark (issue 28): 50 threads answering at once for about a minute against the fake Slack, once
# per SlackApp.spec.streaming mode (native, auto, edit); counts the Web API calls per method and the most in any
# minute against each method's published limit. In-process (the fake Slack and the testkit agent in the test JVM);
# bounded: each mode waits at most 15 minutes. Report: stdout and bench/results/slack-streaming-latest.txt.
# Knobs: MODES=native,auto,edit THREADS=50 CHUNKS=60 CHUNK_MS=1000
set -euo pipefail
BENCH="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
cd "$ROOT"
./mvnw -B -o -q -pl service -am test -Dtest=SlackStreamingBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench.modes="${MODES:-native,auto,edit}" -Dbench.threads="${THREADS:-50}" -Dbench.chunks="${CHUNKS:-60}" \
  -Dbench.chunkMs="${CHUNK_MS:-1000}" -Dbench.report="$BENCH/results/slack-streaming-latest.txt"
cat "$BENCH/results/slack-streaming-latest.txt"
