package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static dev.switchboard.kubernetes.FakeCluster.webBinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.cli.WatchMode;
import dev.switchboard.config.ConfigException;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watch mode's inputs besides the cluster: the file holds the Server resource (and the Secrets it names) and nothing
 * else; the namespace is the flag's, else the pod's own, else the client's default.
 */
@ServerTest
class WatchModeConfigurationTest {

    @TempDir
    Path dir;

    @Test
    void aFileWithAgentsOrBindingsIsRefusedNamingThem() {
        SwitchboardConfig file = new ConfigLoader(Map.of()).parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec: {listen: 127.0.0.1:0}
                ---
                """ + backend("echo", "http://127.0.0.1:9/") + "---\n" + webBinding("ops", "echo"), "server.yaml");
        assertThatThrownBy(() -> WatchMode.checkFile(file, "server.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("server.yaml: in watch mode (--kubernetes) the file holds only the Server resource (and the "
                        + "Secrets it names); these belong in the cluster (kubectl apply them): AgentBackend echo, Binding ops");
    }

    @Test
    void aFileWithTheServerAndItsSecretsIsAccepted() {
        SwitchboardConfig file = new ConfigLoader(Map.of()).parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                  store: postgresql://db:5432/switchboard?user=switchboard
                  storePasswordSecretRef: {name: db, key: password}
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: db}
                stringData: {password: s3cret}
                """, "server.yaml");
        WatchMode.checkFile(file, "server.yaml");
        WatchMode.checkFile(SwitchboardConfig.empty(), "(no --config)");
    }

    @Test
    void theNamespaceIsTheFlagsElseThePodsElseTheClients() throws Exception {
        Path saFile = dir.resolve("namespace");
        assertThat(KubernetesWatch.namespace("team-a", saFile, "default")).isEqualTo("team-a");
        assertThat(KubernetesWatch.namespace(null, saFile, "from-kubeconfig")).isEqualTo("from-kubeconfig");
        Files.writeString(saFile, "pod-ns\n");
        assertThat(KubernetesWatch.namespace(null, saFile, "from-kubeconfig")).isEqualTo("pod-ns");
        assertThat(KubernetesWatch.namespace(null, dir.resolve("absent"), null)).isEqualTo("default");
    }
}
