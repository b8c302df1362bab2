package dev.switchboard.protocol.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseWriterTest {

    @Test
    void writesDataEventsAndComments() {
        assertThat(SseWriter.data("{\"a\":1}")).isEqualTo("data: {\"a\":1}\n\n");
        assertThat(SseWriter.event("error", "{\"e\":1}")).isEqualTo("event: error\ndata: {\"e\":1}\n\n");
        assertThat(SseWriter.comment("SSE stream started")).isEqualTo(": SSE stream started\n\n");
    }

    @Test
    void refusesJsonThatIsNotOneLine() {
        assertThatThrownBy(() -> SseWriter.data("{\n\"a\":1}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SseWriter.data("{\r}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SseWriter.event("err\nor", "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SseWriter.comment("a\nb")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whatTheWriterWritesTheReaderReads() {
        String stream = SseWriter.comment("hi") + SseWriter.data("{\"a\":1}") + SseWriter.event("error", "{\"b\":2}");
        SseReader reader = new SseReader();
        List<SseEvent> events = new ArrayList<>(reader.feed(stream.getBytes(StandardCharsets.UTF_8)));
        events.addAll(reader.finish());
        assertThat(events).containsExactly(new SseEvent(null, null, "{\"a\":1}"), new SseEvent("error", null, "{\"b\":2}"));
    }
}
