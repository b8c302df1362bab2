#!/usr/bin/env bash
# Switchboard gateway benchmark with a JWT check on every call: see bench/README.md ("JWT callers"). Loopback only,
# bounded in time; stops everything it started at exit. Report: stdout and bench/results/jwt-latest.txt.
set -euo pipefail

BENCH="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
JAR="${JAR:-$ROOT/service/target/switchboard-app.jar}"

CONNS="${CONNS:-50}"           # wrk connections
THREADS="${THREADS:-2}"        # wrk threads
JIT_WARMUP="${JIT_WARMUP:-20}" # seconds of unrecorded load through each gateway first (per variant, see below)
ROUNDS="${ROUNDS:-6}"          # rounds; in each, every variant gets one measured segment (the order rotates)
SEGMENT="${SEGMENT:-8}"        # seconds of each measured wrk segment
LEAD_IN="${LEAD_IN:-2}"        # seconds of unrecorded wrk load just before each segment
TOKENS="${TOKENS:-20000}"      # distinct tokens per algorithm: more than the verified-token cache holds (10,000)
KEEP_WORK="${KEEP_WORK:-0}"

WORK="$(mktemp -d /tmp/switchboard-jwt-bench.XXXXXX)"
REPORT="$WORK/report.txt"
PIDS=()
log() { echo "[jwt-bench $(date +%H:%M:%S)] $*" >&2; }
out() { echo "$*" | tee -a "$REPORT"; }
cleanup() {
  local rc=$?
  set +e
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
  sleep 1
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null; done
  if [ "$KEEP_WORK" = 1 ] || [ "$rc" != 0 ]; then log "work dir kept: $WORK"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

command -v wrk > /dev/null && command -v curl > /dev/null || {
  log "installing wrk curl"; export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2; apt-get install -y -qq wrk curl >&2; }
if [ ! -f "$JAR" ]; then
  log "building $JAR"
  (cd "$ROOT" && ./mvnw -q -B -pl service -am package -Dmaven.test.skip=true) >&2
fi
cp "$JAR" "$WORK/switchboard-app.jar"; JAR="$WORK/switchboard-app.jar"
mkdir -p "$WORK/classes"
javac -nowarn -cp "$JAR" -d "$WORK/classes" "$BENCH/src/Upstream.java" "$BENCH/src/JwtTokens.java"
CP="$JAR:$WORK/classes"

free_port() {
  local p
  while :; do p=$((20000 + RANDOM % 12000)); ss -ltnH "sport = :$p" | grep -q . || { echo "$p"; return; }; done
}
wait_http() { local i; for ((i = 0; i < $2 * 10; i++)); do curl -sf -o /dev/null --max-time 1 "$1" && return 0; sleep 0.1; done
  log "timed out waiting for $1"; return 1; }
cpu_ticks() { local s f; s=$(cat "/proc/$1/stat"); read -r -a f <<< "${s##*) }"; echo $((f[11] + f[12])); }
CLK_TCK="$(getconf CLK_TCK)"
to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) { sub(/us$/, "", v); printf "%.3f", v / 1000 }
  else if (v ~ /ms$/) { sub(/ms$/, "", v); printf "%.3f", v } else if (v ~ /s$/) { sub(/s$/, "", v); printf "%.3f", v * 1000 }
  else printf "%s", v }'; }
median() { tr ' ' '\n' | awk 'NF' | sort -g | awk '{ v[++n] = $1 } END { if (!n) { print "-"; exit }
  if (n % 2) printf "%.3f", v[(n + 1) / 2]; else printf "%.3f", (v[n / 2] + v[n / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

# ---- the upstream, the tokens, two gateways ----
UP_PORT=$(free_port)
java -XX:+UseParallelGC -Xms256m -Xmx1g -cp "$CP" Upstream "$UP_PORT" 2 > "$WORK/upstream.log" 2>&1 &
PIDS+=("$!"); UP_PID=$!

ISSUER="https://issuer.bench.example/"; AUDIENCE="switchboard-bench"
log "signing $TOKENS ES256 and $TOKENS RS256 tokens"
java -cp "$CP" JwtTokens "$WORK" "$TOKENS" "$ISSUER" "$AUDIENCE"

start_gateway() { # name, extra Server.spec YAML lines -> sets GW_PORT_<name>, GW_PID_<name>
  local name=$1 port; port=$(free_port)
  mkdir -p "$WORK/gw-$name"
  cat > "$WORK/gw-$name/switchboard.yaml" <<YAML
apiVersion: switchboard.dev/v1
kind: Server
spec:
  listen: 127.0.0.1:$port
  store: sqlite:$WORK/gw-$name/switchboard.db
  http: {maxConnections: 50000}
$2
---
apiVersion: switchboard.dev/v1
kind: AgentBackend
metadata: {name: bench}
spec:
  url: http://127.0.0.1:$UP_PORT/
  limits: {maxConcurrency: 20000, defaultTimeoutSeconds: 60, maxTimeoutSeconds: 3600, streamIdleTimeoutSeconds: 3600}
YAML
  java ${GATEWAY_JAVA_OPTS:-} -jar "$JAR" serve --config "$WORK/gw-$name/switchboard.yaml" > "$WORK/gw-$name/gateway.log" 2>&1 &
  PIDS+=("$!"); printf -v "GW_PID_$name" %s "$!"; printf -v "GW_PORT_$name" %s "$port"
  wait_http "http://127.0.0.1:$port/readyz" 90
}
start_gateway keyless ""
start_gateway jwt "  auth:
    jwt:
      - issuer: $ISSUER
        audiences: [$AUDIENCE]
        jwks: '$(cat "$WORK/jwks.json")'"
wait_http "http://127.0.0.1:$UP_PORT/" 30

BODY="$BENCH/message-send.json"
URL_K="http://127.0.0.1:$GW_PORT_keyless/a2a/bench"
URL_J="http://127.0.0.1:$GW_PORT_jwt/a2a/bench"

# smoke: the JWT gateway relays a token's call byte for byte and refuses a call without one
ref=$(curl -s -X POST -H 'Content-Type: application/json' --data-binary "@$BODY" "http://127.0.0.1:$UP_PORT/")
for t in es256-one es256-many rs256-many; do
  got=$(curl -s -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $(head -1 "$WORK/$t.txt")" \
    --data-binary "@$BODY" "$URL_J")
  [ "$got" = "$ref" ] || { log "the JWT gateway's reply with a $t token differs:"; echo "$got" | head -c 300 >&2; exit 1; }
done
[ "$(curl -s -X POST -H 'Content-Type: application/json' --data-binary "@$BODY" "$URL_K")" = "$ref" ] \
  || { log "the keyless gateway's reply differs"; exit 1; }
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary "@$BODY" "$URL_J")
[ "$code" = 401 ] || { log "the JWT gateway answered $code without a token (expected 401)"; exit 1; }

# one wrk script for every variant, so that wrk does the same work for each: each thread pre-formats one request per
# token of its file (starting at its own offset) and sends them in turn. The keyless gateway gets the ES256 tokens too
# (it ignores them), so the requests are the same bytes as those of the "distinct ES256" variant.
lua() { # token file -> lua script path
  local f="$WORK/post-$(basename "$1" .txt).lua"
  cat > "$f" <<LUA
local counter = 0
function setup(thread) thread:set("id", counter); counter = counter + 1 end
local reqs, i, n = {}, 0, 0
function init(args)
  local f = io.open("$BODY", "rb"); local body = f:read("*a"); f:close()
  for token in io.lines("$1") do
    n = n + 1
    reqs[n] = wrk.format("POST", "/a2a/bench", {["Content-Type"] = "application/json",
      ["Authorization"] = "Bearer " .. token}, body)
  end
  i = (id * math.floor(n / 2)) % n -- two threads half the file apart: a token comes round again only after the cache has been emptied
end
function request() i = i % n + 1; return reqs[i] end
LUA
  echo "$f"
}
LABELS=(keyless jwt-cached jwt-es256 jwt-rs256)
declare -A NAME=([keyless]="gateway, no auth" [jwt-cached]="JWT, same ES256 token" [jwt-es256]="JWT, distinct ES256"
  [jwt-rs256]="JWT, distinct RS256")
declare -A URL=([keyless]="$URL_K" [jwt-cached]="$URL_J" [jwt-es256]="$URL_J" [jwt-rs256]="$URL_J")
declare -A GWPID=([keyless]="$GW_PID_keyless" [jwt-cached]="$GW_PID_jwt" [jwt-es256]="$GW_PID_jwt" [jwt-rs256]="$GW_PID_jwt")
declare -A SCRIPT=([keyless]="$(lua "$WORK/es256-many.txt")" [jwt-cached]="$(lua "$WORK/es256-one.txt")"
  [jwt-es256]="$(lua "$WORK/es256-many.txt")" [jwt-rs256]="$(lua "$WORK/rs256-many.txt")")

load1() { awk '{print $1}' /proc/loadavg; }
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
START=$(date +%s)
out "Switchboard gateway benchmark, JWT callers — $(date -u +%Y-%m-%dT%H:%M:%SZ)"
out "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(java -version 2>&1 | head -1), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"
out "machine: $(nproc) cores, load average at start: $LOAD_START (wrk, the upstream and both gateways share these cores)"
out "request: $(wc -c < "$BODY")-byte message/send + 'Authorization: Bearer <token>' (ES256 token $(head -1 "$WORK/es256-one.txt" | wc -c) chars, RS256 $(head -1 "$WORK/rs256-many.txt" | wc -c));"
out "two gateways (java -jar switchboard-app.jar serve, default JVM flags), same agent config: one without auth, one with"
out "auth.jwt = one issuer with an inline JWKS (one P-256 and one RSA-2048 key). Variants:"
out "  keyless     - the gateway without auth (sent the ES256 tokens too, ignored)"
out "  jwt-cached  - the same ES256 token on every call: verified once, then found in the verified-token cache"
out "  jwt-es256   - $TOKENS distinct ES256 tokens in turn (more than the cache's 10,000): a signature check per call"
out "  jwt-rs256   - the same with $TOKENS distinct RS256 tokens"
out ""

log "JIT warm-up: ${JIT_WARMUP}s per variant"
for l in "${LABELS[@]}"; do wrk -t"$THREADS" -c"$CONNS" -d"${JIT_WARMUP}s" -s "${SCRIPT[$l]}" "${URL[$l]}" > "$WORK/wrk-warm-$l.txt"; done

declare -A REQS SECS TICKS RRPS RUS RP50 RP99 NON2XX
for l in "${LABELS[@]}"; do REQS[$l]=0; SECS[$l]=0; TICKS[$l]=0; RP50[$l]=""; RP99[$l]=""; NON2XX[$l]=0; done
out "== Throughput, closed loop: wrk -t$THREADS -c$CONNS; $ROUNDS rounds, each giving every variant ${SEGMENT}s measured right after"
out "   ${LEAD_IN}s unrecorded; the order rotates by one every round =="
out "$(printf '%5s  %-24s %9s %7s %7s %10s %8s' round variant 'req/s' 'p50 ms' 'p99 ms' 'gw us/req' 'vs keyless')"
for ((r = 1; r <= ROUNDS; r++)); do
  for ((k = 0; k < ${#LABELS[@]}; k++)); do
    l=${LABELS[$(((k + r - 1) % ${#LABELS[@]}))]}
    w="$WORK/wrk-$l-r$r.txt"
    wrk -t"$THREADS" -c"$CONNS" -d"${LEAD_IN}s" -s "${SCRIPT[$l]}" "${URL[$l]}" > /dev/null
    c0=$(cpu_ticks "${GWPID[$l]}")
    wrk -t"$THREADS" -c"$CONNS" -d"${SEGMENT}s" --latency -s "${SCRIPT[$l]}" "${URL[$l]}" > "$w"
    c1=$(cpu_ticks "${GWPID[$l]}")
    reqs=$(awk '/requests in/ {print $1}' "$w")
    secs=$(awk '/requests in/ { v = $4; sub(/,$/, "", v); print v }' "$w"); secs=$(awk -v ms="$(to_ms "$secs")" 'BEGIN { printf "%.3f", ms / 1000 }')
    rps=$(awk -v n="$reqs" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
    RRPS["$r $l"]=$rps; REQS[$l]=$((REQS[$l] + reqs)); SECS[$l]=$(awk -v a="${SECS[$l]}" -v b="$secs" 'BEGIN { print a + b }')
    TICKS[$l]=$((TICKS[$l] + c1 - c0))
    RUS["$r $l"]=$(awk -v d=$((c1 - c0)) -v hz="$CLK_TCK" -v n="$reqs" 'BEGIN { printf "%.1f", 1e6 * d / hz / n }')
    NON2XX[$l]=$((NON2XX[$l] + $(awk '/Non-2xx/ {print $NF}' "$w" | grep . || echo 0)))
    RP50[$l]+="$(to_ms "$(awk '$1 == "50%" {print $2}' "$w")") "; RP99[$l]+="$(to_ms "$(awk '$1 == "99%" {print $2}' "$w")") "
    log "round $r $l: $rps req/s"
  done
  for l in "${LABELS[@]}"; do
    out "$(printf '%5s  %-24s %9s %7s %7s %10s %8s' "$r" "${NAME[$l]}" "${RRPS["$r $l"]}" "$(echo "${RP50[$l]}" | awk '{print $NF}')" \
      "$(echo "${RP99[$l]}" | awk '{print $NF}')" "${RUS["$r $l"]}" "$(ratio "${RRPS["$r $l"]}" "${RRPS["$r keyless"]}")")"
  done
done
out ""
out "totals: req/s = all requests / all measured seconds; ratio = per-round ratio to the keyless gateway, MEDIAN (min–max)"
out "over the rounds; gateway CPU us/req over all segments; latency = median of the rounds' wrk percentiles"
out "$(printf '%-24s %9s %7s %7s %10s %22s %8s' variant 'req/s' 'p50 ms' 'p99 ms' 'gw us/req' 'vs keyless: median' 'non-2xx')"
for l in "${LABELS[@]}"; do
  rps=$(awk -v n="${REQS[$l]}" -v s="${SECS[$l]}" 'BEGIN { printf "%.0f", n / s }')
  us=$(awk -v d="${TICKS[$l]}" -v hz="$CLK_TCK" -v n="${REQS[$l]}" 'BEGIN { printf "%.1f", 1e6 * d / hz / n }')
  rs=""; for ((r = 1; r <= ROUNDS; r++)); do rs+="$(ratio "${RRPS["$r $l"]}" "${RRPS["$r keyless"]}") "; done
  mm=$(echo "$rs" | tr ' ' '\n' | awk 'NF { if (n == 0 || $1 < lo) lo = $1; if (n == 0 || $1 > hi) hi = $1; n++ } END { printf "%.2f–%.2f", lo, hi }')
  out "$(printf '%-24s %9s %7s %7s %10s %22s %8s' "${NAME[$l]}" "$rps" "$(echo "${RP50[$l]}" | median)" "$(echo "${RP99[$l]}" | median)" \
    "$us" "$(echo "$rs" | median | xargs printf '%.2f') ($mm)" "${NON2XX[$l]}")"
done
out "load average at end: $(cut -d' ' -f1-3 /proc/loadavg); measurement time: $(($(date +%s) - START)) s"
out "JWT gateway outcomes (warm-ups included): $(curl -s "http://127.0.0.1:$GW_PORT_jwt/metrics" | awk '/^switchboard_gateway_requests_total\{/ { match($0, /outcome="[^"]*"/); o = substr($0, RSTART + 9, RLENGTH - 10); s[o] += $NF } END { for (o in s) printf "%s=%d ", o, s[o] }')"
mkdir -p "$BENCH/results"
cp "$REPORT" "$BENCH/results/jwt-latest.txt"
log "results written to bench/results/jwt-latest.txt"
