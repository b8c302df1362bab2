package dev.switchboard.protocol.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.codec.A2aFormatException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonRpcCodecTest {

    private static JsonRpcRequest read(String body) {
        return JsonRpcCodec.readRequest(body.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertRejected(String body, int code, boolean idNull, String messagePart) {
        assertThatThrownBy(() -> read(body)).isInstanceOfSatisfying(JsonRpcException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            if (idNull) {
                assertThat(e.id()).isEqualTo(NullNode.getInstance());
            }
            assertThat(e.getMessage()).contains(messagePart);
        });
    }

    @Test
    void validRequestKeepsIdTypeMethodAndParams() {
        JsonRpcRequest r = read("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}");
        assertThat(r.id().isInt()).isTrue();
        assertThat(r.method()).isEqualTo("GetTask");
        assertThat(r.params()).isEqualTo(Json.parse("{\"id\":\"t\"}"));
        assertThat(read("{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"m\"}").id().isTextual()).isTrue();
    }

    @Test
    void absentIdIsANotificationAndNullIdIsNot() {
        JsonRpcRequest notification = read("{\"jsonrpc\":\"2.0\",\"method\":\"m\"}");
        assertThat(notification.id()).isNull();
        assertThat(notification.isNotification()).isTrue();
        JsonRpcRequest nullId = read("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"m\"}");
        assertThat(nullId.id()).isEqualTo(NullNode.getInstance());
        assertThat(nullId.isNotification()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "not json", "", "{\"a\":1} trailing"})
    void invalidJsonIsParseErrorWithNullId(String body) {
        assertRejected(body, -32700, true, "Parse error");
    }

    @Test
    void batchIsInvalidRequestWithNullId() {
        assertRejected("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}]", -32600, true, "batch");
    }

    @ParameterizedTest
    @ValueSource(strings = {"42", "\"str\"", "null", "true"})
    void nonObjectIsInvalidRequest(String body) {
        assertRejected(body, -32600, true, "must be a JSON object");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"1.0\"", "2.0", "null"})
    void wrongJsonrpcVersionIsInvalidRequestEchoingTheId(String version) {
        assertThatThrownBy(() -> read("{\"jsonrpc\":" + version + ",\"id\":\"x\",\"method\":\"m\"}"))
                .isInstanceOfSatisfying(JsonRpcException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32600);
                    assertThat(e.id()).isEqualTo(Json.parse("\"x\""));
                    assertThat(e.getMessage()).contains("jsonrpc must be \"2.0\"");
                });
        assertRejected("{\"id\":1,\"method\":\"m\"}", -32600, false, "jsonrpc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ",\"method\":\"\"", ",\"method\":5", ",\"method\":null"})
    void missingEmptyOrNonStringMethodIsInvalidRequest(String method) {
        assertRejected("{\"jsonrpc\":\"2.0\",\"id\":1" + method + "}", -32600, false, "method");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "true", "1.5", "[1]"})
    void idOfTheWrongTypeIsInvalidRequestWithNullId(String id) {
        assertRejected("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"m\"}", -32600, true, "id must be");
    }

    @Test
    void scalarParamsAreInvalidRequest() {
        assertRejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":\"x\"}", -32600, false, "params");
    }

    @Test
    void responsesEchoTheIdWithItsJsonType() {
        assertThat(JsonRpcCodec.result(Json.parse("1"), Json.parse("{\"a\":1}")))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":1}}");
        assertThat(JsonRpcCodec.result(Json.parse("\"1\""), NullNode.getInstance()))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":null}");
        assertThat(JsonRpcCodec.error(null, Json.parse("{\"code\":-32700,\"message\":\"Parse error\"}")))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
    }

    @Test
    void requestsAreWrittenWithOrWithoutId() {
        assertThat(JsonRpcCodec.request(Json.parse("3"), "GetTask", Json.parse("{\"id\":\"t\"}")))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}");
        assertThat(JsonRpcCodec.request(null, "m", null)).isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"m\"}");
    }

    @Test
    void responseWithResultErrorOrNullResultIsRead() {
        JsonRpcResponse ok = JsonRpcCodec.readResponse(Json.parse("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"x\":1}}"));
        assertThat(ok.isError()).isFalse();
        assertThat(ok.id()).isEqualTo(Json.parse("\"a\""));
        JsonRpcResponse nullResult = JsonRpcCodec.readResponse(Json.parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}"));
        assertThat(nullResult.result()).isEqualTo(NullNode.getInstance());
        JsonRpcResponse err = JsonRpcCodec.readResponse(Json.parse(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"nope\",\"data\":{\"k\":1}}}"));
        assertThat(err.error()).isEqualTo(new JsonRpcError(-32001, "nope", Json.parse("{\"k\":1}")));
    }

    @Test
    void responseWithoutResultOrErrorIsRejected() {
        assertThatThrownBy(() -> JsonRpcCodec.readResponse(Json.parse("{\"jsonrpc\":\"2.0\",\"id\":1}")))
                .isInstanceOf(A2aFormatException.class).hasMessage("response: has neither result nor error");
        assertThatThrownBy(() -> JsonRpcCodec.readError(Json.parse("{\"code\":\"x\"}")))
                .hasMessageContaining("error.code: expected an integer");
    }

    @Test
    void errorInfoReasonsCoverTheA2aCodes() {
        assertThat(JsonRpcError.errorInfoReason(-32009)).contains("VERSION_NOT_SUPPORTED");
        assertThat(JsonRpcError.errorInfoReason(-32007)).contains("EXTENDED_AGENT_CARD_NOT_CONFIGURED");
        assertThat(JsonRpcError.errorInfoReason(-32602)).contains("INVALID_PARAMS");
        assertThat(JsonRpcError.errorInfoReason(-32603)).isEmpty();
    }
}
