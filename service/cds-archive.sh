#!/usr/bin/env sh
# Makes the application class-data archive ./switchboard starts with (bench/startup.sh CDS=1 too):
#   sh service/cds-archive.sh JAR ARCHIVE [DEMO_JAR]
# The classes one `demo` start (with DEMO_JAR, demo/target/switchboard-demo.jar, beside JAR) and one `serve` start
# load (each run until it serves, then stopped by SIGTERM) are listed, and the two lists dumped into one static
# archive: the JDK's classes and the app's, parsed, verified and laid out once, with their lambdas. Every later start
# maps them instead (about half the CPU time to /readyz), for serve as for demo. The archive is only used with the
# same JDK and the same jar at the same path, first on the class path: `java -jar JAR`, or
# `java -cp JAR:DEMO_JAR dev.switchboard.cli.Main demo` (the demo's own few classes, in DEMO_JAR, are left out of
# the archive, which is dumped for JAR alone). Without DEMO_JAR only the serve start is listed.
# Leaves no archive (and says why on stderr) when a step fails; the service then starts as usual, without.
set -u
jar="$1"
archive="$2"
demo_jar="${3:-}"
java="${JAVA:-java}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# one start, its loaded classes listed: $1 = list file, $2 = the line that says it serves, the rest = the java
# arguments after the JVM options (the class path and the command)
list_classes() {
  list="$1"; line="$2"; shift 2
  "$java" -XX:DumpLoadedClassList="$list" -Xlog:cds=off "$@" >"$tmp/out" 2>&1 &
  pid=$!
  waited=0
  until grep -q "$line" "$tmp/out" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$waited" -ge 600 ]; then break; fi
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  grep -q "$line" "$tmp/out" || { echo "class-data archive: the start did not serve:" >&2; cat "$tmp/out" >&2; return 1; }
}

cat >"$tmp/serve.yaml" <<YAML
apiVersion: switchboard.dev/v1
kind: Server
metadata: {name: archive}
spec:
  listen: 127.0.0.1:0
  store: sqlite:$tmp/serve.db
---
apiVersion: switchboard.dev/v1
kind: AgentBackend
metadata: {name: echo}
spec:
  url: http://127.0.0.1:9/
YAML

: >"$tmp/demo.classes"
if [ -n "$demo_jar" ]; then
  list_classes "$tmp/demo.classes" "Switchboard demo is running" -cp "$jar:$demo_jar" dev.switchboard.cli.Main \
    demo --port 0 --store "sqlite:$tmp/demo.db" || exit 1
fi
list_classes "$tmp/serve.classes" "Switchboard is serving" -jar "$jar" serve --config "$tmp/serve.yaml" || exit 1
# both lists, each line once (comments out), without the classes of DEMO_JAR: the archive is dumped for JAR alone
cat "$tmp/demo.classes" "$tmp/serve.classes" | grep -v -e '^#' -e 'dev/switchboard/demo/' -e 'dev/switchboard/testkit/' \
  | awk '!seen[$0]++' >"$tmp/all.classes"
rm -f "$archive.tmp"
if "$java" -Xshare:dump -XX:SharedClassListFile="$tmp/all.classes" -XX:SharedArchiveFile="$archive.tmp" \
    -Xlog:cds=off -Xlog:gc+verify=off -cp "$jar" >"$tmp/dump.out" 2>&1 && [ -s "$archive.tmp" ]; then
  mv -f "$archive.tmp" "$archive"
else
  echo "class-data archive: the dump failed:" >&2; tail -n 20 "$tmp/dump.out" >&2
  rm -f "$archive.tmp"
  exit 1
fi
