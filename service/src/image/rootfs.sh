#!/usr/bin/env bash
# Makes the part of the container image that Jib cannot: a Java runtime and what it links against, for an image
# built FROM scratch (no base image needs pulling: this build reaches no container registry).
#   rootfs.sh OUT_DIR SQLITE_JDBC_JAR
# OUT_DIR becomes Jib's extra directory, copied to / in the image:
#   /opt/java                 a jlink runtime of the modules below, from the build's JDK (its jmods)
#   /lib/…, /lib64/…          the shared libraries that runtime and SQLite's native library link against
#   /opt/switchboard/native   sqlite-jdbc's native library, unpacked here so that nothing is extracted to /tmp
#   /etc/passwd, /etc/group   the switchboard user (65532), so the JVM knows its user and home
#   /tmp, /data, /etc/switchboard   mount points: an emptyDir each for the first two, the ConfigMap for the last
set -euo pipefail

out="${1:?usage: rootfs.sh OUT_DIR SQLITE_JDBC_JAR}"
sqlite_jar="${2:?usage: rootfs.sh OUT_DIR SQLITE_JDBC_JAR}"

# What `jdeps --print-module-deps --ignore-missing-deps --multi-release 17 switchboard-app.jar` reports (it takes
# half a minute, so it is not run on every build), plus what is loaded by name at run time: jdk.crypto.ec (TLS
# with EC keys: https agents, Slack), java.management/jdk.management (JVM metrics), jdk.localedata is not needed.
modules="java.base,java.compiler,java.desktop,java.naming,java.net.http,java.security.jgss,java.sql,jdk.jfr,\
jdk.management,jdk.unsupported,jdk.crypto.ec,java.management,java.xml,java.logging"

java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
if [ ! -d "$java_home/jmods" ]; then
  echo "rootfs.sh: $java_home has no jmods/ folder; jlink needs a full JDK (Debian: openjdk-17-jdk-headless)" >&2
  exit 1
fi

# jlink takes half a minute: skip it when nothing it depends on changed since the last build
stamp="$modules $("$java_home/bin/java" -version 2>&1 | tr '\n' ' ') $(cksum < "$sqlite_jar") $(cksum < "$0")"
if [ -f "$out.stamp" ] && [ "$(cat "$out.stamp")" = "$stamp" ]; then
  exit 0
fi
rm -rf "$out"
mkdir -p "$out"
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=2 \
  --generate-cds-archive --output "$out/opt/java" >/dev/null

mkdir -p "$out/opt/switchboard/native"
unpacked="$(mktemp -d)"
(cd "$unpacked" && "$java_home/bin/jar" xf "$sqlite_jar" org/sqlite/native/Linux/x86_64/libsqlitejdbc.so)
mv "$unpacked/org/sqlite/native/Linux/x86_64/libsqlitejdbc.so" "$out/opt/switchboard/native/"
rm -rf "$unpacked"

# The libraries the runtime needs, found as the build machine's loader finds them. AWT's (X11, fonts, sound) are
# left out: the server runs headless and never loads them.
copy_lib() {
  local src="$1"
  mkdir -p "$out$(dirname "$src")"
  cp -L "$src" "$out$src"
}
libs="$( { echo "$out/opt/java/bin/java"
           find "$out/opt/java/lib" -name '*.so' ! -name 'libawt*' ! -name 'libjawt.so' ! -name 'libfontmanager.so' ! -name 'libjsound.so' \
             ! -name 'libsplashscreen.so' ! -name 'liblcms.so' ! -name 'libjavajpeg.so' ! -name 'libmlib_image.so'
           echo "$out/opt/switchboard/native/libsqlitejdbc.so"; } \
  | xargs -n1 ldd 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u)"
for lib in $libs; do
  case "$lib" in "$out"*) continue ;; esac
  copy_lib "$lib"
done

mkdir -p "$out/etc" "$out/tmp" "$out/data" "$out/etc/switchboard"
printf 'root:x:0:0:root:/root:/sbin/nologin\nswitchboard:x:65532:65532:switchboard:/data:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nswitchboard:x:65532:\n' > "$out/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$out/etc/nsswitch.conf"
# Jib keeps a folder only with something in it
touch "$out/tmp/.keep" "$out/data/.keep" "$out/etc/switchboard/.keep"
echo "$stamp" > "$out.stamp"
