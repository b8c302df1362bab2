package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.tracing.TracingSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code spec.tracing} of the Server resource: off unless {@code otlpEndpoint} is set; bad values name the field. */
class TracingConfigTest {

    private static TracingSettings parse(String tracing) {
        return parse(tracing, Map.of());
    }

    private static TracingSettings parse(String tracing, Map<String, String> env) {
        return new ConfigLoader(env).parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                %s
                """.formatted(tracing), "test.yaml").server().tracing();
    }

    @Test
    void offByDefaultAndWithoutAnEndpoint() {
        assertThat(parse("").enabled()).isFalse();
        assertThat(ServerSpec.defaults().tracing().enabled()).isFalse();
        assertThat(parse("  tracing: {serviceName: sb}").enabled()).isFalse();
        // an unset variable with an empty default leaves tracing off, so one file serves both
        assertThat(parse("  tracing: {otlpEndpoint: \"${OTLP:-}\"}").enabled()).isFalse();
    }

    @Test
    void anEndpointTurnsItOnWithDefaults() {
        TracingSettings t = parse("  tracing: {otlpEndpoint: \"http://otel-collector:4318\"}");
        assertThat(t.enabled()).isTrue();
        assertThat(t.tracesUrl()).isEqualTo("http://otel-collector:4318/v1/traces");
        assertThat(t.serviceName()).isEqualTo("switchboard");
        assertThat(t.samplingRatio()).isEqualTo(1.0);
    }

    @Test
    void serviceNameSamplingAndAFullTracesUrlAreTaken() {
        TracingSettings t = parse("""
                  tracing:
                    otlpEndpoint: "https://collector.example:4318/v1/traces"
                    serviceName: switchboard-eu
                    samplingRatio: "${RATIO}"
                """, Map.of("RATIO", "0.25"));
        assertThat(t.tracesUrl()).isEqualTo("https://collector.example:4318/v1/traces");
        assertThat(t.serviceName()).isEqualTo("switchboard-eu");
        assertThat(t.samplingRatio()).isEqualTo(0.25);
        assertThat(parse("  tracing: {otlpEndpoint: \"http://c:4318/otlp/\"}").tracesUrl())
                .isEqualTo("http://c:4318/otlp/v1/traces");
    }

    @Test
    void aBadEndpointIsRefusedNamingTheFieldAndAnExample() {
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: \"otel-collector:4318\"}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spec.tracing.otlpEndpoint")
                .hasMessageContaining("must be an absolute http or https URL")
                .hasMessageContaining("http://otel-collector:4318");
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: \"grpc://collector:4317\"}"))
                .hasMessageContaining("spec.tracing.otlpEndpoint");
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: \"http://bad host:4318\"}"))
                .hasMessageContaining("spec.tracing.otlpEndpoint").hasMessageContaining("is not a URL");
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: [a]}"))
                .hasMessageContaining("spec.tracing.otlpEndpoint");
    }

    @Test
    void anEndpointWithCredentialsIsRefusedWithoutRepeatingThem() {
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: \"http://user:s3cret-pw@collector:4318\"}"))
                .hasMessageContaining("spec.tracing.otlpEndpoint")
                .hasMessageContaining("no user, query or fragment")
                .hasMessageNotContaining("s3cret-pw");
    }

    @Test
    void badSamplingServiceNameAndUnknownFieldsAreRefused() {
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: \"http://c:4318\", samplingRatio: 1.5}"))
                .hasMessageContaining("spec.tracing.samplingRatio").hasMessageContaining("from 0 to 1");
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: \"http://c:4318\", samplingRatio: half}"))
                .hasMessageContaining("spec.tracing.samplingRatio").hasMessageContaining("half");
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpoint: \"http://c:4318\", serviceName: \" \"}"))
                .hasMessageContaining("spec.tracing.serviceName");
        assertThatThrownBy(() -> parse("  tracing: {otlpEndpiont: \"http://c:4318\"}"))
                .hasMessageContaining("spec.tracing.otlpEndpiont").hasMessageContaining("unknown field");
        assertThatThrownBy(() -> parse("  tracing: http://c:4318"))
                .hasMessageContaining("spec.tracing").hasMessageContaining("must be a mapping");
    }
}
