#!/usr/bin/env bash
# Start-up time: from process start to the first 200 on /readyz, for `serve --config` and for `demo`. Reports each
# run and the median, of the wall clock and of the CPU time the process had used by then (on a busy machine the wall
# clock swings; the CPU time much less). Loopback only; stops what it started. See bench/README.md ("Start-up").
#   RUNS=7 bash bench/startup.sh                  # plain `java -jar`
#   CDS=1 bash bench/startup.sh                   # with an application class-data archive, as ./switchboard runs it
#   FRESH=1 bash bench/startup.sh                 # a new store each run (migrated at start) instead of a restart
#   JAR=/tmp/old.jar SB_JAVA_OPTS=-Xmx256m bash bench/startup.sh
set -euo pipefail

BENCH="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
JAR="${JAR:-$ROOT/service/target/switchboard-app.jar}"
DEMO_JAR="${DEMO_JAR:-$ROOT/demo/target/switchboard-demo.jar}" # the demo's agents, run beside JAR
RUNS="${RUNS:-7}"
SB_JAVA_OPTS="${SB_JAVA_OPTS:-}"  # extra JVM flags
MODES="${MODES:-serve demo}"
FRESH="${FRESH:-0}"
CDS="${CDS:-0}"
JAVA="${JAVA:-java}"

[ -f "$JAR" ] || { echo "no jar at $JAR: build it first (./mvnw -q -pl demo -am package -DskipTests)" >&2; exit 2; }
case " $MODES " in *" demo "*)
  [ -f "$DEMO_JAR" ] || { echo "no demo jar at $DEMO_JAR: build it first (./mvnw -q -pl demo -am package -DskipTests)" >&2; exit 2; }
esac
command -v curl >/dev/null || { echo "curl is needed" >&2; exit 2; }

WORK="$(mktemp -d /tmp/switchboard-startup.XXXXXX)"
cleanup() {
  set +e
  [ -f "$WORK/pid" ] && kill -9 "$(cat "$WORK/pid")" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
now_ms() { date +%s%3N; }

if [ "$CDS" = 1 ]; then
  # the archive ./switchboard makes after a build (service/cds-archive.sh: one demo and one serve start, listed)
  cp "$JAR" "$WORK/app.jar"
  JAR="$WORK/app.jar"
  JAVA="$JAVA" sh "$ROOT/service/cds-archive.sh" "$JAR" "$WORK/app.jsa" "$DEMO_JAR" || exit 1
  [ -s "$WORK/app.jsa" ] || { echo "no archive was written" >&2; exit 1; }
  SB_JAVA_OPTS="-XX:SharedArchiveFile=$WORK/app.jsa -Xlog:cds=off -Xlog:cds+dynamic=off $SB_JAVA_OPTS"
fi

# one run in folder $2 (its store kept there): prints the milliseconds from fork to the first 200 on /readyz, and
# the CPU milliseconds (user + system, all threads) the process had used by then
run_once() {
  local mode="$1" dir="$2" port start pid
  port="$(free_port)"
  mkdir -p "$dir"
  if [ "$mode" = serve ]; then
    cat >"$dir/switchboard.yaml" <<YAML
apiVersion: switchboard.dev/v1
kind: Server
metadata: {name: bench}
spec:
  listen: 127.0.0.1:$port
  store: sqlite:$dir/switchboard.db
---
apiVersion: switchboard.dev/v1
kind: AgentBackend
metadata: {name: echo}
spec:
  url: http://127.0.0.1:9/
YAML
    set -- -jar "$JAR" serve --config "$dir/switchboard.yaml"
  else
    # as ./switchboard runs the demo: its agents' jar beside the service's
    set -- -cp "$JAR:$DEMO_JAR" dev.switchboard.cli.Main demo --port "$port" --store "sqlite:$dir/demo.db"
  fi
  start="$(now_ms)"
  # shellcheck disable=SC2086
  "$JAVA" $SB_JAVA_OPTS "$@" >"$dir/out" 2>"$dir/err" &
  pid=$!
  echo "$pid" >"$WORK/pid"
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz" 2>/dev/null || true)" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "the $mode process exited before it was ready:" >&2; cat "$dir/err" >&2; return 1
    fi
    if [ $(( $(now_ms) - start )) -gt 60000 ]; then echo "not ready within 60 s" >&2; return 1; fi
    sleep 0.005
  done
  local ready cpu
  ready=$(( $(now_ms) - start ))
  cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$pid/stat")
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  rm -f "$WORK/pid"
  echo "$ready $cpu"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }

echo "jar: $JAR"
echo "java: $("$JAVA" -version 2>&1 | head -n 1); opts: ${SB_JAVA_OPTS:-none}; runs: $RUNS; cores: $(nproc);" \
  "store: $([ "$FRESH" = 1 ] && echo "fresh each run" || echo "migrated by the first, unrecorded run")"
for mode in $MODES; do
  run_once "$mode" "$WORK/$mode" >/dev/null # unrecorded: warms the file cache, creates the store
  times=()
  cpus=()
  for i in $(seq "$RUNS"); do
    dir="$WORK/$mode"
    [ "$FRESH" = 1 ] && dir="$WORK/$mode-$i"
    result="$(run_once "$mode" "$dir")"
    times+=("${result% *}")
    cpus+=("${result#* }")
  done
  printf '%-6s ready after (ms): %s  median %s\n' "$mode" "${times[*]}" "$(printf '%s\n' "${times[@]}" | median)"
  printf '%-6s CPU used by then (ms): %s  median %s\n' "$mode" "${cpus[*]}" "$(printf '%s\n' "${cpus[@]}" | median)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
