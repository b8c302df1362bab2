package dev.switchboard.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The container image as Kubernetes would run it, without a container runtime: the tar Jib built is unpacked layer
 * by layer, and the image's own entrypoint and arguments run in a chroot of it, in a mount namespace where the root
 * is read-only, as the image's user, with only /tmp and /data writable (an emptyDir each, as in deploy/) and the
 * configuration mounted read-only at /etc/switchboard (the ConfigMap). The runtime's own mounts (/proc, /dev) are
 * added as a runtime adds them. It must become ready and relay a gateway call to a testkit agent on this machine.
 *
 * <p>Run by the image profile ({@code ./mvnw -B -pl service -am -Pimage verify}); needs root, for the mounts.
 */
@ProcessTest
class ContainerImageSmoke {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SERVING = Pattern.compile("Switchboard is serving on (http://\\S+)");

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private Path work;

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    @Test
    void theImageRunsReadOnlyAsItsNonRootUserAndRelaysAGatewayCall() throws Exception {
        Path tar = Path.of(System.getProperty("switchboard.image.tar", "target/switchboard-image.tar"));
        if (!Files.isRegularFile(tar)) {
            fail(tar + " is missing: build it with ./mvnw -B -pl service -am -Pimage package (this test runs in that "
                    + "profile's verify)");
        }
        Assumptions.assumeTrue("0".equals(run("id", "-u").trim()), "the chroot and its mounts need root");

        work = Files.createTempDirectory("image-smoke");
        cleanup.add(() -> deleteTree(work));
        Path rootfs = Files.createDirectories(work.resolve("rootfs"));
        JsonNode config = unpack(tar, rootfs);

        // what the image says about itself
        JsonNode c = config.path("config");
        String user = c.path("User").asText();
        assertThat(user).as("the image's user, numeric so that runAsNonRoot can check it").matches("[1-9]\\d*:[1-9]\\d*");
        List<String> command = new ArrayList<>();
        c.path("Entrypoint").forEach(a -> command.add(a.asText()));
        c.path("Cmd").forEach(a -> command.add(a.asText()));
        assertThat(command).as("entrypoint and args").contains("serve", "--config", "/etc/switchboard/switchboard.yaml");
        assertThat(rootfs.resolve(command.get(0).substring(1))).as("the entrypoint's program").isExecutable();

        Vertx vertx = Vertx.vertx();
        cleanup.add(() -> vertx.close().await(30, TimeUnit.SECONDS));
        TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await(30, TimeUnit.SECONDS);

        // the volumes: emptyDirs are root-owned and world-writable, the ConfigMap is read-only
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path data = Files.createDirectories(work.resolve("data"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path conf = Files.createDirectories(work.resolve("conf"));
        Files.writeString(conf.resolve("switchboard.yaml"), """
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                  store: sqlite:/data/store/switchboard.db
                ---
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: echo}
                spec: {url: "%s"}
                """.formatted(agent.url()));
        Files.createDirectories(rootfs.resolve("proc")); // mount points a runtime makes
        Files.createDirectories(rootfs.resolve("dev"));

        String[] uidGid = user.split(":");
        String mounts = String.join("; ",
                "set -e",
                "R=\"$1\"; shift",
                "mount --bind \"$R\" \"$R\"",
                "mount -o remount,bind,ro \"$R\"",
                "mount -t proc proc \"$R/proc\"",
                "mount --rbind /dev \"$R/dev\"",
                "mount --bind " + tmp + " \"$R/tmp\"",
                "mount --bind " + data + " \"$R/data\"",
                "mount --bind " + conf + " \"$R/etc/switchboard\"",
                "mount -o remount,bind,ro \"$R/etc/switchboard\"",
                // no namespace flags: this unshare only changes root, folder and user, then runs the entrypoint
                "exec unshare --root=\"$R\" --wd=" + c.path("WorkingDir").asText("/") + " --setgid " + uidGid[1]
                        + " --setuid " + uidGid[0] + " -- \"$@\"");
        List<String> argv = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private", "sh", "-c", mounts,
                "sh", rootfs.toString()));
        argv.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectOutput(work.resolve("out.log").toFile())
                .redirectError(work.resolve("err.log").toFile());
        pb.environment().clear(); // the image declares no environment of its own; PATH is for unshare and mount
        c.path("Env").forEach(e -> pb.environment().put(e.asText().split("=", 2)[0], e.asText().split("=", 2)[1]));
        pb.environment().putIfAbsent("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        Process p = pb.start();
        cleanup.add(() -> {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        });

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String base = Awaitility.await("the image's service to listen").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!p.isAlive()) {
                        fail("the image's entrypoint exited with " + p.exitValue() + ":\n" + logs());
                    }
                    Matcher m = SERVING.matcher(Files.readString(work.resolve("out.log")));
                    return m.find() ? m.group(1) : null;
                }, b -> b != null);
        Awaitility.await("the image's service to be ready").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    if (!p.isAlive()) {
                        fail("the image's entrypoint exited with " + p.exitValue() + ":\n" + logs());
                    }
                    return http.send(HttpRequest.newBuilder(URI.create(base + "/readyz")).build(),
                            HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
                });
        assertThat(get(http, base + "/healthz").statusCode()).isEqualTo(200);
        HttpResponse<String> page = get(http, base + "/");
        assertThat(page.statusCode()).as("the web chat's page, served from the image's jars").isEqualTo(200);
        assertThat(page.body()).containsIgnoringCase("<html");

        // the process that answers is the image's java, as the image's user, on a read-only root
        String status = Files.readString(Path.of("/proc", Long.toString(p.pid()), "status"));
        assertThat(status).as("/proc/<pid>/status").containsPattern("(?m)^Uid:\\s+" + uidGid[0] + "\\s+" + uidGid[0]);
        assertThat(Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "exe")).toString())
                .endsWith(command.get(0));
        assertThat(rootMountOptions(p.pid())).as("the root's mount options").contains("ro");

        String body = """
                {"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","kind":"message",
                "messageId":"m-image-1","parts":[{"kind":"text","text":"hello from the image"}]}}}""";
        HttpResponse<String> reply = http.send(HttpRequest.newBuilder(URI.create(base + "/a2a/echo"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        assertThat(JSON.readTree(reply.body()).path("result").path("status").path("state").asText())
                .as(reply.body()).isEqualTo("completed");
        assertThat(reply.body()).contains("hello from the image");
        assertThat(agent.recorder().lastRequest().body()).contains("m-image-1");

        System.out.println("image smoke: " + status.lines().filter(l -> l.startsWith("VmRSS")).findFirst().orElse("")
                + " at start; after a call: " + Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))
                .stream().filter(l -> l.startsWith("VmRSS")).findFirst().orElse(""));

        // what it wrote went to the volumes, as the image's user
        Path db = data.resolve("store/switchboard.db");
        assertThat(db).exists();
        assertThat(Files.getAttribute(db, "unix:uid")).isEqualTo(Integer.parseInt(uidGid[0]));
        assertThat(logs()).doesNotContain("Read-only file system").doesNotContain("ERROR");

        p.destroy(); // SIGTERM, as the kubelet stops a pod
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stopped after SIGTERM").isTrue();
    }

    /** Unpacks a docker-archive tar (what jib:buildTar writes) layer by layer; returns the image's config. */
    private static JsonNode unpack(Path tar, Path rootfs) throws Exception {
        Path archive = Files.createDirectories(rootfs.getParent().resolve("archive"));
        run("tar", "-xf", tar.toString(), "-C", archive.toString());
        JsonNode manifest = JSON.readTree(archive.resolve("manifest.json").toFile()).get(0);
        for (JsonNode layer : manifest.path("Layers")) {
            run("tar", "--warning=no-unknown-keyword", "-xzf", archive.resolve(layer.asText()).toString(),
                    "-C", rootfs.toString());
        }
        return JSON.readTree(archive.resolve(manifest.path("Config").asText()).toFile());
    }

    /** The options of the mount the process sees as its root (field 4 of mountinfo is the mount point). */
    private static String rootMountOptions(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "mountinfo"))) {
            String[] f = line.split(" ");
            if (f[4].equals("/")) {
                return f[5];
            }
        }
        return fail("no root mount in /proc/" + pid + "/mountinfo");
    }

    private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String logs() throws IOException {
        return Files.readString(work.resolve("out.log")) + Files.readString(work.resolve("err.log"));
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", command) + " failed:\n" + out);
        }
        return out;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
