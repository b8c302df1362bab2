#!/usr/bin/env bash
# Switchboard chat-bridge benchmark: see bench/README.md ("Chat bridge"). Loopback only, bounded in time;
# stops everything it started at exit. Report: stdout and bench/results/bridge-latest.txt.
set -euo pipefail

BENCH="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
JAR="${JAR:-$ROOT/service/target/switchboard-app.jar}" # another build to measure, e.g. an older commit's
JAR_SOURCE="$JAR"

ROUNDS="${ROUNDS:-3}"                # closed-loop rounds
THREADS="${THREADS:-2000}"           # new threads (one message each) per round
CLIENTS="${CLIENTS:-64}"             # concurrent clients in the rounds
WARMUP_THREADS="${WARMUP_THREADS:-200}" # unrecorded threads first (JIT)
RATE="${RATE:-200}"                  # open loop: new threads per second (0: skip)
RATE_WARMUP="${RATE_WARMUP:-5}"
RATE_DURATION="${RATE_DURATION:-20}"
AGENT_BEHAVIOUR="${AGENT_BEHAVIOUR:-/fulltask}" # the echo agent's default behaviour (test-kit directive)
SB_JAVA_OPTS="${SB_JAVA_OPTS:-}"     # extra JVM flags for Switchboard
JFR="${JFR:-0}"                      # 1: record the rounds with JFR into the work dir (kept)
SESSION_IDLE="${SESSION_IDLE:-}"     # bridge.sessionIdleTimeout (e.g. 5s); empty: the product default (10m)
KEEP_WORK="${KEEP_WORK:-0}"

WORK="$(mktemp -d /tmp/switchboard-bridge-bench.XXXXXX)"
REPORT="$WORK/report.txt"
PIDS=()
log() { echo "[bridge-bench $(date +%H:%M:%S)] $*" >&2; }
out() { echo "$*" | tee -a "$REPORT"; }
cleanup() {
  local rc=$?
  set +e
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
  sleep 1
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null; done
  if [ "$KEEP_WORK" = 1 ] || [ "$JFR" = 1 ] || [ "$rc" != 0 ]; then log "work dir kept: $WORK"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

command -v jcmd >/dev/null || { log "jcmd (a JDK) is needed"; exit 1; }
# the agent is the test kit's echo, which the production jar no longer holds: the demo jar carries it
DEMO_JAR="${DEMO_JAR:-$ROOT/demo/target/switchboard-demo.jar}"
if [ ! -f "$JAR" ] || [ ! -f "$DEMO_JAR" ]; then
  log "building $JAR and $DEMO_JAR"
  (cd "$ROOT" && ./mvnw -q -B -pl demo -am package -Dmaven.test.skip=true) >&2
fi
cp "$JAR" "$WORK/switchboard-app.jar"; JAR="$WORK/switchboard-app.jar"
mkdir -p "$WORK/classes"
javac -nowarn -cp "$JAR:$DEMO_JAR" -d "$WORK/classes" "$BENCH"/src/Bridge*.java
CP="$JAR:$DEMO_JAR:$WORK/classes"

free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 12000))
    if ! ss -ltnH "sport = :$p" | grep -q .; then echo "$p"; return; fi
  done
}
wait_http() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do curl -s -o /dev/null --max-time 1 "$1" && return 0; sleep 0.1; done
  log "timed out waiting for $1"; return 1
}

# the instant agent: the demo's echo agent, in its own JVM (what it records stays out of Switchboard's heap)
AG_PORT=$(free_port)
java -Xmx1g -cp "$CP" BridgeAgent "$AG_PORT" "$AGENT_BEHAVIOUR" > "$WORK/agent.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$AG_PORT/.well-known/agent-card.json" 60

SB_PORT=$(free_port)
BRIDGE_LINE=""
if [ -n "$SESSION_IDLE" ]; then BRIDGE_LINE="  bridge: {sessionIdleTimeout: $SESSION_IDLE}"; fi
cat > "$WORK/switchboard.yaml" <<YAML
apiVersion: switchboard.dev/v1
kind: Server
spec:
  listen: 127.0.0.1:$SB_PORT
  store: sqlite:$WORK/switchboard.db
$BRIDGE_LINE
---
apiVersion: switchboard.dev/v1
kind: AgentBackend
metadata: {name: echo}
spec:
  url: http://127.0.0.1:$AG_PORT/
  limits: {maxConcurrency: 20000}
---
apiVersion: switchboard.dev/v1
kind: Binding
metadata: {name: web-echo}
spec:
  backendRef: {name: echo}
  chat: {platform: web, channels: [echo]}
  identity: {userId: bench}
YAML
java $SB_JAVA_OPTS -jar "$JAR" serve --config "$WORK/switchboard.yaml" > "$WORK/switchboard.log" 2>&1 &
SB_PID=$!; PIDS+=("$SB_PID")
wait_http "http://127.0.0.1:$SB_PORT/healthz" 60

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
out "Switchboard chat-bridge benchmark — $(date -u +%Y-%m-%dT%H:%M:%SZ)"
if [ "$JAR_SOURCE" = "$ROOT/service/target/switchboard-app.jar" ]; then
  out "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') (this work tree's build), $(java -version 2>&1 | head -1)"
else
  out "jar $JAR_SOURCE (not this work tree's build), $(java -version 2>&1 | head -1)"
fi
out "machine: $(nproc) cores, load average at start: $LOAD_START (other work on the machine shares the cores)"
out "switchboard: ${SESSION_IDLE:+sessionIdleTimeout $SESSION_IDLE; }java ${SB_JAVA_OPTS:-(default flags)} -jar switchboard-app.jar serve; embedded store; agent: test-kit echo ($AGENT_BEHAVIOUR) in its own JVM"
out ""

if [ "$JFR" = 1 ]; then jcmd "$SB_PID" JFR.start name=bench settings=profile filename="$WORK/rounds.jfr" > /dev/null; fi
log "rounds: $ROUNDS x $THREADS threads, $CLIENTS clients (after $WARMUP_THREADS warm-up threads)"
java -cp "$CP" BridgeBench rounds "http://127.0.0.1:$SB_PORT" echo "$SB_PID" "$ROUNDS" "$THREADS" "$CLIENTS" "$WARMUP_THREADS" \
  > "$WORK/rounds.out" 2> "$WORK/rounds.err"
if [ "$JFR" = 1 ]; then jcmd "$SB_PID" JFR.stop name=bench > /dev/null; log "JFR recording: $WORK/rounds.jfr"; fi
field() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k {print $2}'; }
out "== Closed loop: rounds of $THREADS new threads (one message each), $CLIENTS concurrent clients =="
out "$(printf '%-6s %16s %11s %11s %9s %9s %10s %14s %11s %s' round 'threads in store' accepted/s finished/s 'p50 ms' 'p99 ms' 'heap MiB' 'heap KB/thread' 'CPU us/turn' 'completed/errors')"
while read -r line; do
  r=$(field "$line" round)
  [ "$r" = 0 ] && { out "$(printf '%-6s %16s %11s %11s %9s %9s %10.1f' 0 "$(field "$line" threads)" - - - - "$(awk -v k="$(field "$line" heap_kb)" 'BEGIN {print k/1024}')")"; continue; }
  out "$(printf '%-6s %16s %11s %11s %9s %9s %10.1f %14s %11s %s/%s' "$r" "$(field "$line" threads)" "$(field "$line" accepted_per_s)" \
      "$(field "$line" finished_per_s)" "$(field "$line" p50_ms)" "$(field "$line" p99_ms)" \
      "$(awk -v k="$(field "$line" heap_kb)" 'BEGIN {print k/1024}')" "$(field "$line" heap_kb_per_thread)" \
      "$(field "$line" cpu_us_per_turn)" "$(field "$line" completed)" "$(field "$line" errors)")"
done < <(grep '^RESULT' "$WORK/rounds.out")
out "   where the heap kept since round 0 went (live objects, jcmd GC.class_histogram; bytes per thread added, top 12):"
grep '^HISTO' "$WORK/rounds.out" | sed 's/^HISTO bytes_per_thread=\([0-9]*\) class=\(.*\)/\1 \2/' \
  | awk '{ printf "     %7s B/thread  %s\n", $1, $2 }' | tee -a "$REPORT"
out "   latency: the turn's final state as committed by the server (post updatedAt) minus when its POST was sent;"
out "   CPU us/turn: Switchboard's JVM (user+system, all threads) over the round / turns: the figure least moved by"
out "   other work on a shared machine, which takes cores from every process here"
out "   heap: used after two full GCs (jcmd GC.run; GC.heap_info); per thread = growth since round 0 / threads added"

if [ "$RATE" != 0 ]; then
  log "open loop: $RATE threads/s"
  java -cp "$CP" BridgeBench rate "http://127.0.0.1:$SB_PORT" echo "$SB_PID" "$RATE" "$RATE_WARMUP" "$RATE_DURATION" \
    > "$WORK/rate.out" 2> "$WORK/rate.err"
  line=$(grep '^RESULT' "$WORK/rate.out")
  out ""
  out "== Open loop: $RATE new threads/s, ${RATE_WARMUP}s warm-up, ${RATE_DURATION}s recorded (latency from each POST's due time) =="
  out "$(printf '%9s %9s %9s %9s %9s %9s %s' rate recorded 'p50 ms' 'p90 ms' 'p99 ms' 'max ms' errors)"
  out "$(printf '%9s %9s %9s %9s %9s %9s %s' "$(field "$line" rate)" "$(field "$line" recorded)" "$(field "$line" p50_ms)" \
      "$(field "$line" p90_ms)" "$(field "$line" p99_ms)" "$(field "$line" max_ms)" "$(field "$line" errors)")"
fi
out ""
curl -s "http://127.0.0.1:$SB_PORT/metrics" > "$WORK/metrics.txt"
sum_of() { awk -v n="$1" 'index($0, n) == 1 && substr($0, length(n) + 1, 1) ~ /[{ ]/ { s += $NF } END { printf "%.0f", s }' "$WORK/metrics.txt"; }
commits=$(sum_of switchboard_bridge_store_commit_seconds_count); commit_s=$(sum_of switchboard_bridge_store_commit_seconds_sum)
finished=$(sum_of switchboard_bridge_turns_finished_total)
if [ "${finished:-0}" -gt 0 ]; then
  out "bridge metrics over the whole run: $finished turns finished, $commits store commits" \
      "($(awk -v c="$commits" -v f="$finished" 'BEGIN { printf "%.1f", c / f }') per turn, mean" \
      "$(awk -v s="$(awk '/^switchboard_bridge_store_commit_seconds_sum/ {print $NF}' "$WORK/metrics.txt")" -v c="$commits" 'BEGIN { if (c > 0) printf "%.2f", 1000 * s / c }') ms with the wait for the writer)"
else
  out "bridge metrics: none (a build before switchboard_bridge_* metrics)"
fi
mkdir -p "$BENCH/results"
cp "$REPORT" "$BENCH/results/bridge-latest.txt"
log "results written to bench/results/bridge-latest.txt"
