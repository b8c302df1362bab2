#!/usr/bin/env bash
# send_message calls/s through /mcp against the same sends through /a2a, in one run (issue 25). ~1.5 minutes.
# Builds service/target/switchboard-app.jar if it is missing (JAR=… measures another build). Report to stdout and
# bench/results/mcp-latest.txt. Knobs (Java system properties through BENCH_OPTS): -Dconcurrency=32 -Drounds=4
# -Dsegment=8 -Dwarmup=20.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR="${JAR:-$ROOT/service/target/switchboard-app.jar}"
if [[ ! -f "$JAR" ]]; then
  (cd "$ROOT" && ./mvnw -q -B -pl service -am package -Dmaven.test.skip=true)
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$JAR" "$WORK/switchboard-app.jar"
mkdir -p "$ROOT/bench/results"
java ${BENCH_OPTS:-} -cp "$WORK/switchboard-app.jar" "$ROOT/bench/src/McpBench.java" "$WORK/switchboard-app.jar" "$WORK/run" \
  | tee "$ROOT/bench/results/mcp-latest.txt"
