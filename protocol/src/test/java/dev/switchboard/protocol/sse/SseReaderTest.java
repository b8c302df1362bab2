package dev.switchboard.protocol.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseReaderTest {

    private static List<SseEvent> readAll(String stream) {
        SseReader reader = new SseReader();
        List<SseEvent> out = new ArrayList<>(reader.feed(stream.getBytes(StandardCharsets.UTF_8)));
        out.addAll(reader.finish());
        return out;
    }

    private static List<SseEvent> readByteByByte(byte[] bytes) {
        SseReader reader = new SseReader();
        List<SseEvent> out = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            out.addAll(reader.feed(bytes, i, 1));
        }
        out.addAll(reader.finish());
        return out;
    }

    @Test
    void readsOneDataEventPerBlankLine() {
        assertThat(readAll("data: {\"a\":1}\n\ndata: {\"b\":2}\n\n"))
                .containsExactly(new SseEvent(null, null, "{\"a\":1}"), new SseEvent(null, null, "{\"b\":2}"));
    }

    @Test
    void ignoresCommentsAndKeepsIdAndEventType() {
        assertThat(readAll(": SSE stream started\n\nid: 0\ndata: x\n\nevent: error\ndata: {\"error\":{}}\n\n")).containsExactly(
                new SseEvent(null, "0", "x"), new SseEvent("error", null, "{\"error\":{}}"));
        assertThat(readAll("event: error\ndata: e\n\n").get(0).isError()).isTrue();
    }

    @Test
    void joinsMultiLineDataWithNewlines() {
        assertThat(readAll("data: {\ndata:   \"a\": 1\ndata: }\n\n"))
                .containsExactly(new SseEvent(null, null, "{\n  \"a\": 1\n}"));
    }

    @Test
    void stripsExactlyOneLeadingSpaceAndAcceptsNoSpace() {
        assertThat(readAll("data:x\n\ndata:  y\n\n"))
                .containsExactly(new SseEvent(null, null, "x"), new SseEvent(null, null, " y"));
    }

    @Test
    void acceptsCrlfAndCrLineEnds() {
        List<SseEvent> expected = List.of(new SseEvent(null, null, "a"), new SseEvent("e", null, "b"));
        assertThat(readAll("data: a\r\n\r\nevent: e\r\ndata: b\r\n\r\n")).isEqualTo(expected);
        assertThat(readAll("data: a\r\revent: e\rdata: b\r\r")).isEqualTo(expected);
    }

    @Test
    void eventsWithoutDataAreNotDispatched() {
        assertThat(readAll("event: ping\n\nid: 5\n\n: just a comment\n\n")).isEmpty();
    }

    @Test
    void emptyDataLineDispatchesAnEmptyEvent() {
        assertThat(readAll("data:\n\n")).containsExactly(new SseEvent(null, null, ""));
    }

    @Test
    void fragmentsSplitAnywhereGiveTheSameEvents() {
        String stream = ": hello\r\nid: 1\r\ndata: {\"text\":\"héllo wörld – ✓ 😀\"}\r\n\r\nevent: error\rdata: a\rdata: b\r\rdata: last\n\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        List<SseEvent> whole = readAll(stream);
        assertThat(whole).containsExactly(
                new SseEvent(null, "1", "{\"text\":\"héllo wörld – ✓ 😀\"}"),
                new SseEvent("error", null, "a\nb"),
                new SseEvent(null, null, "last"));
        assertThat(readByteByByte(bytes)).isEqualTo(whole);
        for (int split = 1; split < bytes.length; split++) {
            SseReader reader = new SseReader();
            List<SseEvent> out = new ArrayList<>(reader.feed(bytes, 0, split));
            out.addAll(reader.feed(bytes, split, bytes.length - split));
            out.addAll(reader.finish());
            assertThat(out).as("split at " + split).isEqualTo(whole);
        }
    }

    @Test
    void crAtTheEndOfAChunkAndLfAtTheStartOfTheNextAreOneLineEnd() {
        SseReader reader = new SseReader();
        assertThat(reader.feed("data: a\r".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(reader.feed("\n\r".getBytes(StandardCharsets.UTF_8))).containsExactly(new SseEvent(null, null, "a"));
        assertThat(reader.feed("\ndata: b\n\n".getBytes(StandardCharsets.UTF_8))).containsExactly(new SseEvent(null, null, "b"));
    }

    @Test
    void finishDispatchesATrailingEventWithoutBlankLine() {
        SseReader reader = new SseReader();
        assertThat(reader.feed("data: tail".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(reader.finish()).containsExactly(new SseEvent(null, null, "tail"));
    }

    @Test
    void eventLargerThanTheCapIsRefused() {
        SseReader reader = new SseReader(16);
        assertThatThrownBy(() -> reader.feed("data: 0123456789abcdef\n\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SseTooLargeException.class).hasMessageContaining("16");
    }

    @Test
    void capAppliesPerEventNotPerStream() {
        SseReader reader = new SseReader(16);
        List<SseEvent> out = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            out.addAll(reader.feed("data: 0123456789\n\n".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(out).hasSize(100);
    }

    @Test
    void capCountsAllDataLinesOfOneEvent() {
        SseReader reader = new SseReader(20);
        assertThatThrownBy(() -> reader.feed("data: 0123456\ndata: 0123456\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SseTooLargeException.class);
    }

    @Test
    void leadingByteOrderMarkIsIgnored() {
        assertThat(readAll("\uFEFFdata: x\n\n")).containsExactly(new SseEvent(null, null, "x"));
    }

    @Test
    void unknownFieldsAndRetryAreIgnored() {
        assertThat(readAll("retry: 1000\nfoo: bar\ndata: x\n\n")).containsExactly(new SseEvent(null, null, "x"));
    }
}
