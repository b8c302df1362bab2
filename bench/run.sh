#!/usr/bin/env bash
# Switchboard gateway benchmark: see bench/README.md. Runs everything on this machine, loopback only,
# bounded in time; tears everything down at exit. Results: stdout and bench/results/latest.txt.
set -euo pipefail

BENCH="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
JAR="${JAR:-$ROOT/service/target/switchboard-app.jar}"   # JAR=…: another build (e.g. an older commit's)

# ---- knobs (environment overrides) ----
CONNS="${CONNS:-50}"                 # wrk connections, same for all three targets
THREADS="${THREADS:-2}"              # wrk threads
JIT_WARMUP="${JIT_WARMUP:-30}"       # seconds of unrecorded load through the gateway (and so the upstream) first: JIT
ROUNDS="${ROUNDS:-4}"                # section 1: rounds; in each, every target gets one measured segment, same order
SEGMENT="${SEGMENT:-8}"              # section 1: seconds of each measured wrk segment
LEAD_IN="${LEAD_IN:-2}"              # section 1: seconds of unrecorded wrk load just before each segment
RATE="${RATE:-1000}"                 # fixed rate of the open-loop latency test, req/s
RATE_WARMUP="${RATE_WARMUP:-5}"      # seconds at that rate before recording
RATE_DURATION="${RATE_DURATION:-60}" # seconds recorded at that rate, per target (60,000 calls: a p99 is the 600th-worst)
RATE_SEGMENT="${RATE_SEGMENT:-0.2}"  # the targets take turns in segments of this many seconds (fractions allowed)
HOST_PROBE="${HOST_PROBE:-5}"        # 1b: seconds per core of HostStalls (the host's own stalls) first; 0: none
OPENLOOP_RT="${OPENLOOP_RT:-1}"      # 1: the open-loop generator's event-loop thread runs SCHED_FIFO (chrt -f 5) when allowed
OPENLOOP_JAVA_OPTS="${OPENLOOP_JAVA_OPTS:--XX:+UseSerialGC -Xms6g -Xmx6g -Xmn5g -XX:+AlwaysPreTouch -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0}" # 1b: no GC, no periodic safepoint
STREAMS="${STREAMS:-1000 5000 10000}" # idle SSE stream counts relayed through the gateway
KEEP_WORK="${KEEP_WORK:-0}"          # 1: keep the work dir (logs, configs) after the run

WORK="$(mktemp -d /tmp/switchboard-bench.XXXXXX)"
REPORT="$WORK/report.txt"
PIDS=()
HOLDER_FD_OPEN=0

log() { echo "[bench $(date +%H:%M:%S)] $*" >&2; }
out() { echo "$*" | tee -a "$REPORT"; }

stop_pid() { # pid [seconds]: SIGTERM, then SIGKILL if still alive after the grace time; echoes how it ended
  local pid=$1 grace=${2:-5} i
  kill "$pid" 2>/dev/null || { echo "gone"; return 0; }
  for ((i = 0; i < grace * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; echo "exited on SIGTERM"; return 0; }
    sleep 0.1
  done
  { kill -9 "$pid"; wait "$pid"; } 2>/dev/null
  echo "still running ${grace}s after SIGTERM, killed with SIGKILL"
}

cleanup() {
  local rc=$?
  set +e
  if [ "$HOLDER_FD_OPEN" = 1 ]; then exec 3>&-; fi
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
  done
  sleep 1
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
  done
  if [ "$KEEP_WORK" = 1 ] || [ "$rc" != 0 ]; then
    log "work dir kept: $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- prerequisites ----
need_pkgs=()
command -v wrk >/dev/null || need_pkgs+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need_pkgs+=(nginx)
command -v curl >/dev/null || need_pkgs+=(curl)
command -v jcmd >/dev/null || need_pkgs+=(openjdk-17-jdk-headless)
if [ "${#need_pkgs[@]}" -gt 0 ]; then
  log "installing ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${need_pkgs[@]}" >&2
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

if [ ! -f "$JAR" ]; then
  log "building $JAR"
  (cd "$ROOT" && ./mvnw -q -B -pl service -am package -Dmaven.test.skip=true) >&2
fi

# every process started below inherits this (the gateway holds 2 sockets per relayed stream)
FD_HARD="$(ulimit -Hn)"
if [ "$FD_HARD" = unlimited ]; then FD_HARD=1048576; fi
ulimit -n "$FD_HARD"

# a private copy, so that a rebuild in the work tree during the run cannot change what is measured
cp "$JAR" "$WORK/switchboard-app.jar"
JAR="$WORK/switchboard-app.jar"

log "compiling bench programs"
mkdir -p "$WORK/classes"
javac -nowarn -cp "$JAR" -d "$WORK/classes" "$BENCH"/src/*.java
CP="$JAR:$WORK/classes"

# ---- helpers ----
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 12000))
    if ! ss -ltnH "sport = :$p" | grep -q .; then echo "$p"; return; fi
  done
}

wait_http() { # url, seconds
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    curl -sf -o /dev/null --max-time 1 "$1" && return 0
    sleep 0.1
  done
  log "timed out waiting for $1"; return 1
}

cpu_ticks() { # total utime+stime (clock ticks) of the given pids
  local t=0 pid s f
  for pid in "$@"; do
    if s=$(cat "/proc/$pid/stat" 2>/dev/null); then
      read -r -a f <<< "${s##*) }"
      t=$((t + f[11] + f[12]))
    fi
  done
  echo "$t"
}
CLK_TCK="$(getconf CLK_TCK)"

nginx_pids() { echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')"; }

# per-thread CPU ticks of a JVM, as "tid<TAB>name<TAB>ticks" lines (names from jcmd Thread.print)
thread_ticks() {
  local pid=$1 tid s f name
  jcmd "$pid" Thread.print 2>/dev/null | sed -n 's/^"\([^"]*\)".* nid=0x\([0-9a-f]*\).*/\2\t\1/p' > "$WORK/threads.$pid"
  for tdir in /proc/"$pid"/task/*; do
    tid="${tdir##*/}"
    s=$(cat "$tdir/stat" 2>/dev/null) || continue
    read -r -a f <<< "${s##*) }"
    name=$(awk -F'\t' -v n="$(printf '%x' "$tid")" '$1 == n { print $2; exit }' "$WORK/threads.$pid")
    printf '%s\t%s\t%s\n' "$tid" "${name:-tid-$tid}" $((f[11] + f[12]))
  done
}

to_ms() { # wrk value like 512.00us / 1.23ms / 2.00s -> ms
  awk -v v="$1" 'BEGIN {
    if (v ~ /us$/) { sub(/us$/, "", v); printf "%.3f", v / 1000 }
    else if (v ~ /ms$/) { sub(/ms$/, "", v); printf "%.3f", v }
    else if (v ~ /m$/) { sub(/m$/, "", v); printf "%.3f", v * 60000 }
    else if (v ~ /s$/) { sub(/s$/, "", v); printf "%.3f", v * 1000 }
    else printf "%s", v }'
}

# ---- the upstream, nginx, the gateway ----
UP_PORT=$(free_port)
java -XX:+UseParallelGC -Xms256m -Xmx1g -cp "$CP" Upstream "$UP_PORT" 2 > "$WORK/upstream.log" 2>&1 &
UP_PID=$!; PIDS+=("$UP_PID")

NGX_PORT=$(free_port)
mkdir -p "$WORK/nginx/logs" "$WORK/nginx/tmp"
cat > "$WORK/nginx/nginx.conf" <<EOF
worker_processes 2;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
worker_rlimit_nofile 20000;
events { worker_connections 10000; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/tmp/body;
  proxy_temp_path $WORK/nginx/tmp/proxy;
  fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
  scgi_temp_path $WORK/nginx/tmp/scgi;
  upstream agent {
    server 127.0.0.1:$UP_PORT;
    keepalive 64;
  }
  server {
    listen 127.0.0.1:$NGX_PORT backlog=4096;
    location / {
      proxy_pass http://agent;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
EOF
if [ "$(id -u)" = 0 ]; then sed -i '1i user root;' "$WORK/nginx/nginx.conf"; fi
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" > "$WORK/nginx/logs/stdout.log" 2>&1 &
NGINX_PID=$!; PIDS+=("$NGINX_PID")

start_gateway() { # sets GW_PORT, GW_PID
  GW_PORT=$(free_port)
  mkdir -p "$WORK/gw-$GW_PORT"
  cat > "$WORK/gw-$GW_PORT/switchboard.yaml" <<EOF
apiVersion: switchboard.dev/v1
kind: Server
spec:
  listen: 127.0.0.1:$GW_PORT
  store: sqlite:$WORK/gw-$GW_PORT/switchboard.db
  http: {maxConnections: 50000}
---
apiVersion: switchboard.dev/v1
kind: AgentBackend
metadata: {name: bench}
spec:
  url: http://127.0.0.1:$UP_PORT/
  limits: {maxConcurrency: 20000, defaultTimeoutSeconds: 60, maxTimeoutSeconds: 3600, streamIdleTimeoutSeconds: 3600}
EOF
  # the gateway runs exactly as a user runs it: java -jar switchboard-app.jar serve, default JVM flags
  java ${GATEWAY_JAVA_OPTS:-} -jar "$JAR" serve --config "$WORK/gw-$GW_PORT/switchboard.yaml" \
    > "$WORK/gw-$GW_PORT/gateway.log" 2>&1 &
  GW_PID=$!; PIDS+=("$GW_PID")
  wait_http "http://127.0.0.1:$GW_PORT/readyz" 60   # ready: the gateway answers calls (healthz answers while it starts)
}
start_gateway

wait_http "http://127.0.0.1:$UP_PORT/" 30
wait_http "http://127.0.0.1:$NGX_PORT/" 30

BODY="$BENCH/message-send.json"
URL_A="http://127.0.0.1:$UP_PORT/"
URL_B="http://127.0.0.1:$NGX_PORT/"
URL_C="http://127.0.0.1:$GW_PORT/a2a/bench"

# smoke: all three must return the upstream's exact reply
ref=$(curl -s -X POST -H 'Content-Type: application/json' --data-binary "@$BODY" "$URL_A")
for u in "$URL_B" "$URL_C"; do
  got=$(curl -s -X POST -H 'Content-Type: application/json' --data-binary "@$BODY" "$u")
  if [ "$got" != "$ref" ]; then log "reply through $u differs from the upstream's:"; echo "$got" | head -c 300 >&2; exit 1; fi
done

# other work on the machine skews everything: wait a little for a quiet machine, and report the load
load1() { awk '{print $1}' /proc/loadavg; }
for ((i = 0; i < 60; i++)); do
  awk -v l="$(load1)" 'BEGIN { exit !(l < 1.5) }' && break
  [ "$i" = 0 ] && log "load average $(load1): waiting up to 60 s for the machine to quieten"
  sleep 1
done
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

sys_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; } # user nice system irq softirq ticks, all cores

START=$(date +%s)
out "Switchboard gateway benchmark — $(date -u +%Y-%m-%dT%H:%M:%SZ)"
out "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(java -version 2>&1 | head -1), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), nginx $("$NGINX" -v 2>&1 | sed 's/.*nginx\///')"
out "machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM, fd limit $FD_HARD"
out "load average at start: $LOAD_START (other processes on the machine compete for the same cores)"
out "NOTE: wrk/load generator, nginx, the upstream and the gateway all share these $(nproc) cores,"
out "      so absolute figures are lower than on separate hosts; the ratios are what to compare."
out "request: $(wc -c < "$BODY")-byte JSON-RPC message/send; reply: $(printf %s "$ref" | wc -c)-byte JSON-RPC result (fixed)"
out "upstream: bench/src/Upstream.java (Vert.x, 2 event loops); nginx: 2 workers, upstream keepalive 64;"
out "gateway: java -jar switchboard-app.jar serve (default JVM flags), agent limits.maxConcurrency 20000"
out ""

# ---- 1. closed-loop throughput with wrk ----
cat > "$WORK/post.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$BODY", "rb")
wrk.body = f:read("*a")
f:close()
EOF

# The three targets take turns: ROUNDS rounds, each giving every target one SEGMENT-second wrk run right after a
# LEAD_IN-second unrecorded one, in the same order every round. On a shared (virtual) machine the throughput drifts
# by tens of percent over minutes; one long run per target, one after the other, lets that drift decide the ratio.
# Counts and CPU ticks are summed over a target's segments; wrk's percentiles exist per run only, so those are kept
# per round and the totals give the median of the rounds.
LABELS=(direct nginx gateway)
declare -A NAME=([direct]="(a) upstream direct" [nginx]="(b) nginx proxy" [gateway]="(c) gateway /a2a/{id}")
declare -A URL=([direct]="$URL_A" [nginx]="$URL_B" [gateway]="$URL_C")
declare -A REQS SECS WALL PTK UTK STK NON2XX SOCKERR RP50 RP90 RP99   # sums over segments; R*: per-round lists
declare -A RRPS                                                         # "round label" -> req/s of that segment
for l in "${LABELS[@]}"; do REQS[$l]=0; SECS[$l]=0; WALL[$l]=0; PTK[$l]=0; UTK[$l]=0; STK[$l]=0; NON2XX[$l]=0; SOCKERR[$l]="0 0 0 0"; RP50[$l]=""; RP90[$l]=""; RP99[$l]=""; done
: > "$WORK/gw-thread-deltas.txt"

proxy_pids() { case $1 in direct) ;; nginx) nginx_pids;; gateway) echo "$GW_PID";; esac; }
gw_task_ticks() { # tid<TAB>ticks of every gateway thread (cheap: /proc only; names are read once at the end)
  local tdir s f
  for tdir in /proc/"$GW_PID"/task/*; do
    s=$(cat "$tdir/stat" 2>/dev/null) || continue
    read -r -a f <<< "${s##*) }"
    printf '%s\t%s\n' "${tdir##*/}" $((f[11] + f[12]))
  done
}
add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a + b }'; }
median() { tr ' ' '\n' | awk 'NF' | sort -g | awk '{ v[++n] = $1 } END { if (!n) { print "-"; exit } if (n % 2) printf "%.3f", v[(n + 1) / 2]; else printf "%.3f", (v[n / 2] + v[n / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

run_segment() { # round label: one lead-in and one measured segment; prints the round's line for that target
  local r=$1 label=$2 url=${URL[$2]} w="$WORK/wrk-$2-r$1.txt" pids p0 p1 u0 u1 s0 s1 t0 t1 reqs secs non2xx sock
  pids=$(proxy_pids "$label")
  wrk -t"$THREADS" -c"$CONNS" -d"${LEAD_IN}s" -s "$WORK/post.lua" "$url" > /dev/null
  if [ "$label" = gateway ]; then gw_task_ticks > "$WORK/gw-ticks-0.txt"; fi
  p0=$(cpu_ticks $pids); u0=$(cpu_ticks "$UP_PID"); s0=$(sys_busy); t0=$(date +%s.%N)
  wrk -t"$THREADS" -c"$CONNS" -d"${SEGMENT}s" --latency -s "$WORK/post.lua" "$url" > "$w"
  p1=$(cpu_ticks $pids); u1=$(cpu_ticks "$UP_PID"); s1=$(sys_busy); t1=$(date +%s.%N)
  if [ "$label" = gateway ]; then
    gw_task_ticks > "$WORK/gw-ticks-1.txt"
    awk -F'\t' 'NR == FNR { base[$1] = $2; next } { d = $2 - base[$1]; if (d > 0) printf "%s\t%d\n", $1, d }' \
      "$WORK/gw-ticks-0.txt" "$WORK/gw-ticks-1.txt" >> "$WORK/gw-thread-deltas.txt"
  fi
  reqs=$(awk '/requests in/ {print $1}' "$w")
  secs=$(awk '/requests in/ { v = $4; sub(/,$/, "", v); print v }' "$w")
  secs=$(awk -v ms="$(to_ms "$secs")" 'BEGIN { printf "%.3f", ms / 1000 }')
  non2xx=$(awk '/Non-2xx/ {print $NF}' "$w")
  sock=$(awk '/Socket errors/ { gsub(/,/, ""); print $4, $6, $8, $10 }' "$w")
  REQS[$label]=$((REQS[$label] + ${reqs:-0})); SECS[$label]=$(add "${SECS[$label]}" "$secs")
  WALL[$label]=$(add "${WALL[$label]}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  PTK[$label]=$((PTK[$label] + p1 - p0)); UTK[$label]=$((UTK[$label] + u1 - u0)); STK[$label]=$((STK[$label] + s1 - s0))
  NON2XX[$label]=$((NON2XX[$label] + ${non2xx:-0}))
  SOCKERR[$label]=$(awk -v a="${SOCKERR[$label]}" -v b="${sock:-0 0 0 0}" 'BEGIN { split(a, x, " "); split(b, y, " "); print x[1] + y[1], x[2] + y[2], x[3] + y[3], x[4] + y[4] }')
  local rps p50 p90 p99 pus mach
  rps=$(awk -v n="${reqs:-0}" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print 0 }')
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' "$w")"); p90=$(to_ms "$(awk '$1 == "90%" {print $2}' "$w")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' "$w")")
  RRPS["$r $label"]=$rps; RP50[$label]+="$p50 "; RP90[$label]+="$p90 "; RP99[$label]+="$p99 "
  pus=$(awk -v d=$((p1 - p0)) -v hz="$CLK_TCK" -v n="${reqs:-0}" 'BEGIN { if (n > 0 && d > 0) printf "%.1f", 1e6 * d / hz / n; else print "-" }')
  mach=$(awk -v d=$((s1 - s0)) -v hz="$CLK_TCK" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f%%", 100 * d / hz / (b - a)}')
  [ "$label" = direct ] && pus="-"
  log "round $r $label: $rps req/s"
  out "$(printf '%5s  %-22s %9s %7s %7s %7s %10s %8s  %s' "$r" "${NAME[$label]}" "$rps" "$p50" "$p90" "$p99" "$pus" "$mach" \
      "$( [ "${non2xx:-0}${sock:-0 0 0 0}" = "00 0 0 0" ] || echo "non-2xx ${non2xx:-0}, socket errors ${sock:-0 0 0 0}")")"
}

log "JIT warm-up: ${JIT_WARMUP}s of load through the gateway (warms the gateway and the upstream JVMs)"
wrk -t"$THREADS" -c"$CONNS" -d"${JIT_WARMUP}s" -s "$WORK/post.lua" "$URL_C" > "$WORK/wrk-jit-warmup.txt"
JIT_RPS=$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk-jit-warmup.txt")

out "== 1. Throughput, closed loop: wrk -t$THREADS -c$CONNS, keep-alive; the targets take turns: $ROUNDS rounds, each giving"
out "   (a), (b), (c) in this order ${SEGMENT}s measured right after ${LEAD_IN}s unrecorded (so drift on the machine hits all three alike) =="
out "   (before that, ${JIT_WARMUP}s through the gateway to JIT-compile the gateway and upstream JVMs: ${JIT_RPS} req/s over that warm-up)"
out "$(printf '%5s  %-22s %9s %7s %7s %7s %10s %8s' round target 'req/s' 'p50 ms' 'p90 ms' 'p99 ms' 'proxy us/r' 'machine')"
declare -A RCB RCA RBA
for ((r = 1; r <= ROUNDS; r++)); do
  for l in "${LABELS[@]}"; do run_segment "$r" "$l"; done
  RCB[$r]=$(ratio "${RRPS["$r gateway"]}" "${RRPS["$r nginx"]}"); RCA[$r]=$(ratio "${RRPS["$r gateway"]}" "${RRPS["$r direct"]}")
  RBA[$r]=$(ratio "${RRPS["$r nginx"]}" "${RRPS["$r direct"]}")
  out "       round $r throughput ratios: c/b = ${RCB[$r]}, c/a = ${RCA[$r]}, b/a = ${RBA[$r]}"
done

declare -A RPS P50 P90 P99 PCPU UCPU PUS SYS ERRS
for l in "${LABELS[@]}"; do
  RPS[$l]=$(awk -v n="${REQS[$l]}" -v s="${SECS[$l]}" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print 0 }')
  P50[$l]=$(echo "${RP50[$l]}" | median); P90[$l]=$(echo "${RP90[$l]}" | median); P99[$l]=$(echo "${RP99[$l]}" | median)
  pct() { awk -v d="$1" -v hz="$CLK_TCK" -v s="${WALL[$l]}" 'BEGIN { if (s > 0) printf "%.0f", 100 * d / hz / s; else print 0 }'; }
  PCPU[$l]=$(pct "${PTK[$l]}"); UCPU[$l]=$(pct "${UTK[$l]}"); SYS[$l]=$(pct "${STK[$l]}")
  PUS[$l]=$(awk -v d="${PTK[$l]}" -v hz="$CLK_TCK" -v n="${REQS[$l]}" 'BEGIN { if (n > 0 && d > 0) printf "%.1f", 1e6 * d / hz / n; else print "-" }')
  read -r sc sr sw st <<< "${SOCKERR[$l]}"
  ERRS[$l]="non-2xx ${NON2XX[$l]}"
  [ "${SOCKERR[$l]}" = "0 0 0 0" ] || ERRS[$l]+="; socket errors: connect $sc, read $sr, write $sw, timeout $st"
done
minmax() { tr ' ' '\n' | awk 'NF && $1 != "n/a" { if (n == 0 || $1 < lo) lo = $1; if (n == 0 || $1 > hi) hi = $1; n++ } END { if (n) printf "%.2f–%.2f", lo, hi; else print "n/a" }'; }

out "totals over the $ROUNDS rounds: req/s = all requests / all measured seconds (${ROUNDS} × ${SEGMENT}s per target); CPU summed over"
out "the segments; latency = MEDIAN OF THE ROUNDS' wrk percentiles (wrk reports them per run only)"
out "$(printf '%-22s %9s %7s %7s %7s  %-9s %10s %8s %8s  %s' target 'req/s' 'p50 ms' 'p90 ms' 'p99 ms' 'proxy CPU' 'proxy us/r' 'upstrm' 'machine' 'errors')"
for l in "${LABELS[@]}"; do
  pc="${PCPU[$l]}%"; pu="${PUS[$l]}"; [ "$l" = direct ] && { pc="-"; pu="-"; }
  out "$(printf '%-22s %9s %7s %7s %7s  %-9s %10s %8s %8s  %s' "${NAME[$l]}" "${RPS[$l]}" "${P50[$l]}" "${P90[$l]}" "${P99[$l]}" "$pc" "$pu" "${UCPU[$l]}%" "${SYS[$l]}%" "${ERRS[$l]}")"
done
out "   CPU columns: % of one core during the measured segments (proxy = nginx master+workers or the gateway JVM;"
out "   proxy us/r = proxy CPU microseconds per request; machine = all processes, $(nproc)00% = every core busy)"
out "ratios (totals): throughput c/b = $(ratio "${RPS[gateway]}" "${RPS[nginx]}"), c/a = $(ratio "${RPS[gateway]}" "${RPS[direct]}"), b/a = $(ratio "${RPS[nginx]}" "${RPS[direct]}");" \
    "p99 latency (median of rounds) c/b = $(ratio "${P99[gateway]}" "${P99[nginx]}"), c/a = $(ratio "${P99[gateway]}" "${P99[direct]}")"
out "ratios per round (min–max over the $ROUNDS rounds): throughput c/b = $(echo "${RCB[*]}" | minmax), c/a = $(echo "${RCA[*]}" | minmax), b/a = $(echo "${RBA[*]}" | minmax)"

# gateway outcome counters: every relayed call must be "ok"
outcomes=$(curl -s "http://127.0.0.1:$GW_PORT/metrics" | awk '/^switchboard_gateway_requests_total\{/ { match($0, /outcome="[^"]*"/); o = substr($0, RSTART + 9, RLENGTH - 10); s[o] += $NF } END { for (o in s) printf "%s=%d ", o, s[o] }')
out "gateway outcomes over the whole run (warm-ups included): ${outcomes:-none}"

# which gateway threads did the work during its measured segments (ticks summed per thread, names from jcmd)
jcmd "$GW_PID" Thread.print 2>/dev/null | sed -n 's/^"\([^"]*\)".* nid=0x\([0-9a-f]*\).*/\2\t\1/p' > "$WORK/gw-thread-names.txt"
awk -F'\t' -v hz="$CLK_TCK" -v s="${WALL[gateway]}" '
     NR == FNR { name[$1] = $2; next }
     { d[$1] += $2 }
     END { for (t in d) { n = name[sprintf("%x", t)]; if (n == "") n = "tid-" t; printf "%s\t%.0f%%\n", n, 100 * d[t] / hz / s } }' \
  "$WORK/gw-thread-names.txt" "$WORK/gw-thread-deltas.txt" | sort -t$'\t' -k2 -rn > "$WORK/gw-threads.txt"
out "gateway threads busiest during its measured segments (% of one core):"
head -5 "$WORK/gw-threads.txt" | awk -F'\t' '{ printf "    %-45s %s\n", $1, $2 }' | tee -a "$REPORT"
out "    event-loop threads that used >= 1% of a core: $(awk -F'\t' '$1 ~ /^vert.x-eventloop/ && $2 + 0 >= 1' "$WORK/gw-threads.txt" | wc -l)" \
    "of $(awk -F'\t' '$2 ~ /^vert.x-eventloop/' "$WORK/gw-thread-names.txt" | wc -l) in the gateway JVM"
out ""

# ---- 1b. open-loop latency at a fixed rate ----
declare -A OL
field() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k {print $2}'; }
# First, the machine itself: a thread spinning on each core in turn, nothing else running, records every time it lost
# its core (HostStalls). On this kind of virtual machine the host takes a core away for 0.5-10 ms a few times a second,
# mostly at one phase of every 100 ms of wall clock (a phase that drifts by a few ms a minute); OpenLoop finds that
# window in the direct target's slowest requests and then also gives every target's p99 without it.
: > "$WORK/host-stalls.txt"
if [ "$HOST_PROBE" != 0 ]; then
  log "host probe: ${HOST_PROBE}s spinning on each core"
  for ((c = 0; c < $(nproc); c++)); do
    taskset -c "$c" java -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0 -cp "$CP" HostStalls "$HOST_PROBE" 200 \
      | sed "s/^STALLS /STALLS core=$c /" >> "$WORK/host-stalls.txt"
  done
fi
log "open loop: ${RATE} req/s; ${RATE_WARMUP}s warm-up per target, then ${RATE_DURATION}s per target in interleaved ${RATE_SEGMENT}s segments"
# The generator must not be the tail: an eden larger than everything it allocates in the run (~10 KB per request),
# so no GC pauses it; and, where allowed, real-time priority (SCHED_FIFO) for its one event-loop thread (which paces
# and reads the replies; the JVM's other threads, JIT compilers included, stay at normal priority), so that it never
# waits for a core that nginx, the upstream, the gateway or other work holds. That thread needs ~15 % of one core.
java $OPENLOOP_JAVA_OPTS -cp "$CP" OpenLoop "$BODY" "$RATE" "$RATE_WARMUP" "$RATE_DURATION" "$RATE_SEGMENT" "$CONNS" \
  "direct=$URL_A" "nginx=$URL_B" "gateway=$URL_C" > "$WORK/openloop.out" 2> "$WORK/openloop.err" &
OL_PID=$!; PIDS+=("$OL_PID")
OL_PRIO="normal priority (OPENLOOP_RT=0)"
if [ "$OPENLOOP_RT" = 1 ]; then
  OL_PRIO="normal priority (its event loop did not appear, or chrt -f is not allowed here)"
  for ((i = 0; i < 1200; i++)); do # up to a minute: on a busy machine the JVM takes seconds to pre-touch its heap
    tid=$(grep -lx 'vert.x-eventloo' /proc/"$OL_PID"/task/*/comm 2> /dev/null | head -1 | cut -d/ -f5 || true)
    if [ -n "$tid" ]; then
      chrt -f -p 5 "$tid" 2> /dev/null && OL_PRIO="its event-loop thread SCHED_FIFO 5 (chrt)"
      break
    fi
    sleep 0.05
  done
fi
wait "$OL_PID"
for l in direct nginx gateway; do OL[$l]=$(grep "^RESULT label=$l " "$WORK/openloop.out"); done
OL_GEN=$(grep "^GENERATOR " "$WORK/openloop.out")
out "== 1b. Latency at a fixed ${RATE} req/s, open loop (bench/src/OpenLoop.java; wrk2 is not in Debian) =="
out "   per target: ${RATE_WARMUP}s warm-up, then ${RATE_DURATION}s recorded, the targets taking turns in ${RATE_SEGMENT}s segments"
out "   (so background noise hits all three alike); latency counted from each request's intended send time"
out "   generator: java $OPENLOOP_JAVA_OPTS, paced on its event loop; $OL_PRIO;"
out "   its own share, over the recorded requests: $(field "$OL_GEN" gc_count) GCs ($(field "$OL_GEN" gc_ms) ms) in the run, sent late by" \
    "p50 $(field "$OL_GEN" send_lag_p50_us) us, p99 $(field "$OL_GEN" send_lag_p99_us) us, max $(field "$OL_GEN" send_lag_max_us) us"
phase_window() { # start length: "80-100 and 0-10 ms into every 100 ms of wall clock"
  local end=$(($1 + $2))
  if [ "$end" -le 100 ]; then echo "$1-$end ms into every 100 ms of wall clock"
  else echo "$1-100 and 0-$((end - 100)) ms into every 100 ms of wall clock"; fi
}
if [ "$HOST_PROBE" != 0 ]; then
  out "   the host, probed first (bench/src/HostStalls.java: ${HOST_PROBE}s spinning on each core, nothing else running):"
  while read -r line; do
    out "     core $(field "$line" core): lost its core $(field "$line" count) times for > 0.2 ms, $(field "$line" stalled_ms) ms in all," \
        "longest $(field "$line" max_ms) ms; $(field "$line" window_share) of them began $(phase_window "$(field "$line" window_start_ms)" 30)"
  done < "$WORK/host-stalls.txt"
fi
PHASE=$(grep "^PHASE " "$WORK/openloop.out" || true)
if [ -n "$(field "${OL[direct]}" outside_p99_ms)" ]; then
  out "   the direct target's slowest 1 %: $(field "$PHASE" share) of them due $(phase_window "$(field "$PHASE" window_start_ms)" 30);" \
      "'p99 outs.': over the requests due outside that window (the same 70 % of every target's requests)"
else
  out "   the direct target's slowest 1 % show no such window ($(field "$PHASE" share) of them in the most crowded 30 ms): no 'p99 outs.'"
fi
out "$(printf '%-22s %9s %9s %9s %9s %9s %9s %9s   %s' target 'rate' 'p50 ms' 'p90 ms' 'p99 ms' 'p99.9 ms' 'max ms' 'p99 outs.' 'ok/errors')"
for l in direct nginx gateway; do
  r=${OL[$l]}
  out "$(printf '%-22s %9s %9s %9s %9s %9s %9s %9s   %s/%s' "$l" "$(field "$r" rate)" "$(field "$r" p50_ms)" "$(field "$r" p90_ms)" \
      "$(field "$r" p99_ms)" "$(field "$r" p999_ms)" "$(field "$r" max_ms)" "$(field "$r" outside_p99_ms || true)" "$(field "$r" ok)" "$(field "$r" errors)")"
done
diff_ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.3f", a - b }'; }
out "added latency, gateway - direct: p50 $(diff_ms "$(field "${OL[gateway]}" p50_ms)" "$(field "${OL[direct]}" p50_ms)") ms," \
    "p99 $(diff_ms "$(field "${OL[gateway]}" p99_ms)" "$(field "${OL[direct]}" p99_ms)") ms"
out "added latency, nginx - direct:   p50 $(diff_ms "$(field "${OL[nginx]}" p50_ms)" "$(field "${OL[direct]}" p50_ms)") ms," \
    "p99 $(diff_ms "$(field "${OL[nginx]}" p99_ms)" "$(field "${OL[direct]}" p99_ms)") ms"
if [ -n "$(field "${OL[direct]}" outside_p99_ms)" ]; then
  out "added p99 outside the host's stall window: gateway $(diff_ms "$(field "${OL[gateway]}" outside_p99_ms)" "$(field "${OL[direct]}" outside_p99_ms)") ms," \
      "nginx $(diff_ms "$(field "${OL[nginx]}" outside_p99_ms)" "$(field "${OL[direct]}" outside_p99_ms)") ms"
fi
out ""

# ---- 2. idle SSE streams relayed through a fresh gateway ----
log "restarting the gateway for the stream test (fresh JVM, no pooled connections from the load tests)"
GW_STOP=$(stop_pid "$GW_PID" 10)
start_gateway
URL_C="http://127.0.0.1:$GW_PORT/a2a/bench"

mkfifo "$WORK/holder.in"
java -cp "$CP" SseHolder "$URL_C" 200 < "$WORK/holder.in" > "$WORK/holder.out" 2> "$WORK/holder.err" &
HOLDER_PID=$!; PIDS+=("$HOLDER_PID")
exec 3> "$WORK/holder.in"; HOLDER_FD_OPEN=1

holder() { # command, expected reply prefix -> reply line
  local before n i
  before=$(wc -l < "$WORK/holder.out")
  echo "$1" >&3
  for ((i = 0; i < 1200; i++)); do
    n=$(wc -l < "$WORK/holder.out")
    if [ "$n" -gt "$before" ]; then sed -n "$((before + 1))p" "$WORK/holder.out"; return 0; fi
    sleep 0.1
  done
  log "holder did not answer '$1'"; return 1
}
gw_streams() { curl -s "http://127.0.0.1:$GW_PORT/metrics" | awk '/^switchboard_gateway_streams_open\{/ {print int($NF)}' | head -1; }
heap_used_kb() { # full GC, then the used heap in KB
  jcmd "$GW_PID" GC.run > /dev/null
  sleep 1
  jcmd "$GW_PID" GC.run > /dev/null
  jcmd "$GW_PID" GC.heap_info | awk 'match($0, /used [0-9]+K/) { print substr($0, RSTART + 5, RLENGTH - 6); exit }'
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$GW_PID/status"; }
fds() { ls "/proc/$GW_PID/fd" | wc -l; }

histogram() { jcmd "$GW_PID" GC.class_histogram 2>/dev/null | awk '$1 ~ /^[0-9]+:$/ { print $4, $2, $3 }'; } # class count bytes (live objects, after a full GC)

# warm-up: open and close a few streams so the code paths are loaded and compiled
holder "open 300" > /dev/null
holder "close" > /dev/null
for ((i = 0; i < 100; i++)); do [ "$(gw_streams)" = 0 ] && break; sleep 0.1; done
sleep 2
H0=$(heap_used_kb); R0=$(rss_kb); F0=$(fds)
histogram > "$WORK/histo-0.txt"
GW_HEAP_MAX=$(jcmd "$GW_PID" VM.flags 2>/dev/null | tr ' ' '\n' | awk -F= '$1 == "-XX:MaxHeapSize" {printf "%d MiB", $2 / 1048576}')
GW_GC=$(jcmd "$GW_PID" VM.flags 2>/dev/null | tr ' ' '\n' | grep -o 'Use[A-Za-z0-9]*GC' | head -1)

out "== 2. Idle SSE streams relayed by the gateway (fresh gateway JVM: $GW_GC, max heap $GW_HEAP_MAX) =="
out "   client: bench/src/SseHolder.java, one message/stream call per connection, counted open at its first event;"
out "   the upstream holds each stream open after that one event. Heap = used after full GCs (jcmd GC.run;"
out "   GC.heap_info); RSS = VmRSS of the gateway. Per-stream figures are (value at N - value at 0) / N."
out "$(printf '%-8s %8s %8s %10s %10s %13s %13s' N 'open' 'gw fds' 'heap MiB' 'RSS MiB' 'heap KB/strm' 'RSS KB/strm')"
out "$(printf '%-8s %8s %8s %10.1f %10.1f %13s %13s' 0 0 "$F0" "$(awk -v k="$H0" 'BEGIN {print k / 1024}')" "$(awk -v k="$R0" 'BEGIN {print k / 1024}')" - -)"
LAST_N=0
for N in $STREAMS; do
  if [ $((2 * N + 250)) -gt "$FD_HARD" ]; then
    N2=$(( (FD_HARD - 250) / 2 / 100 * 100 ))
    out "$(printf '%-8s not possible here: the gateway holds 2 sockets per relayed stream, so %d streams need >%d fds; the hard fd limit is %s and cannot be raised in this sandbox' "$N" "$N" $((2 * N)) "$FD_HARD")"
    if [ "$N2" -le "$LAST_N" ]; then continue; fi
    N=$N2
    out "$(printf '%-8s (the largest count that fits the fd limit, measured instead)' "$N")"
  fi
  log "opening streams up to $N"
  t0=$(date +%s.%N)
  reply=$(holder "open $N")
  t1=$(date +%s.%N)
  sleep 3
  open=$(gw_streams)
  H=$(heap_used_kb); R=$(rss_kb); F=$(fds)
  st=$(holder status)
  out "$(printf '%-8s %8s %8s %10.1f %10.1f %13.2f %13.2f   (%s; opened in %.1f s; after measuring: %s)' "$N" "${open:-?}" "$F" \
      "$(awk -v k="$H" 'BEGIN {print k / 1024}')" "$(awk -v k="$R" 'BEGIN {print k / 1024}')" \
      "$(awk -v h="$H" -v b="$H0" -v n="$N" 'BEGIN {print (h - b) / n}')" \
      "$(awk -v h="$R" -v b="$R0" -v n="$N" 'BEGIN {print (h - b) / n}')" \
      "$reply" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$st")"
  LAST_N=$N
done
if [ "$LAST_N" -gt 0 ]; then
  histogram > "$WORK/histo-1.txt"
  out "where the heap per stream goes at N=$LAST_N (class histogram of live objects, delta from N=0, top 12):"
  awk -v n="$LAST_N" 'NR == FNR { c0[$1] = $2; b0[$1] = $3; next }
       { db = $3 - b0[$1]; dc = $2 - c0[$1]; if (db > 0) printf "%d %.2f %.0f %s\n", db, dc / n, db / n, $1 }' \
       "$WORK/histo-0.txt" "$WORK/histo-1.txt" | sort -rn | head -12 \
    | awk '{ printf "    %7s B/stream  %6s objects/stream  %s\n", $3, $2, $4 }' | tee -a "$REPORT"
fi
holder "close" > /dev/null || true
out ""
out "gateway shutdown: the load-test gateway was ${GW_STOP:-?}"
END=$(date +%s)
out "measurement time: $((END - START)) s (plus install/build/compile/start-up before it)"

mkdir -p "$BENCH/results"
cp "$REPORT" "$BENCH/results/latest.txt"
log "results written to bench/results/latest.txt"
