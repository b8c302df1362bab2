package dev.switchboard.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.VersionDetector.Detected;
import dev.switchboard.protocol.VersionDetector.Unsupported;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class VersionDetectorTest {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  "})
    void missingOrEmptyHeaderMeans03(String header) {
        assertThat(VersionDetector.detect(header, "message/send")).isEqualTo(new Detected(ProtocolVersion.V0_3, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "1.0.0", "1.0.1", " 1.0 "})
    void oneDotZeroWithOrWithoutPatchIs10(String header) {
        assertThat(VersionDetector.detect(header, "SendMessage")).isEqualTo(new Detected(ProtocolVersion.V1_0, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.3", "0.3.0", "0.3.7"})
    void zeroDotThreeWithOrWithoutPatchIs03(String header) {
        assertThat(VersionDetector.detect(header, "tasks/get")).isEqualTo(new Detected(ProtocolVersion.V0_3, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"99.0", "1.1", "0.5", "2", "v1.0", "latest", "1.0.x"})
    void anyOtherVersionIsUnsupportedNamingTheValue(String header) {
        assertThat(VersionDetector.detect(header, "SendMessage")).isInstanceOfSatisfying(Unsupported.class,
                u -> assertThat(u.reason()).contains("'" + header + "'").contains("1.0").contains("0.3"));
    }

    @Test
    void pascalCaseMethodWithoutHeaderIsServedAs10Leniently() {
        assertThat(VersionDetector.detect(null, "SendMessage")).isEqualTo(new Detected(ProtocolVersion.V1_0, true));
        assertThat(VersionDetector.detect("", "GetTask")).isEqualTo(new Detected(ProtocolVersion.V1_0, true));
    }

    @Test
    void v03MethodUnderAn10HeaderIsUnsupportedWithAClearReason() {
        assertThat(VersionDetector.detect("1.0", "message/send")).isEqualTo(
                new Unsupported("method 'message/send' is A2A 0.3 but A2A-Version says 1.0"));
    }

    @Test
    void v10MethodUnderAnExplicit03HeaderIsUnsupported() {
        assertThat(VersionDetector.detect("0.3", "SendMessage")).isInstanceOf(Unsupported.class);
    }

    @Test
    void unknownMethodsTakeTheHeadersVersion() {
        assertThat(VersionDetector.detect("1.0", "custom/thing")).isEqualTo(new Detected(ProtocolVersion.V1_0, false));
        assertThat(VersionDetector.detect(null, "DoSomethingCustom")).isEqualTo(new Detected(ProtocolVersion.V0_3, false));
        assertThat(VersionDetector.detect("0.3", null)).isEqualTo(new Detected(ProtocolVersion.V0_3, false));
    }
}
