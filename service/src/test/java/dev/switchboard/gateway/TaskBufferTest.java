package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** G13: the id line added to a relayed event, what is read of an event, and the per-task buffer's bounds. */
class TaskBufferTest {

    private static final String V03_STATUS = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\","
            + "\"taskId\":\"t-1\",\"contextId\":\"c\",\"status\":{\"state\":\"%s\"},\"final\":false}}";
    private static final String V10_STATUS = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{"
            + "\"taskId\":\"t-2\",\"contextId\":\"c\",\"status\":{\"state\":\"%s\"}}}}";

    @Test
    void theIdIsTheEventsLastLineWhateverItsLineEnds() {
        assertThat(StreamEventFields.withId(Buffer.buffer("data: x\n\n"), "t:1").toString()).isEqualTo("data: x\nid: t:1\n\n");
        assertThat(StreamEventFields.withId(Buffer.buffer("data: x\r\n\r\n"), "t:2").toString())
                .isEqualTo("data: x\r\nid: t:2\n\n");
        assertThat(StreamEventFields.withId(Buffer.buffer("data: x\r\r"), "t:3").toString()).isEqualTo("data: x\rid: t:3\n\n");
        // an id the agent wrote stays, before ours, which is the one a client keeps
        assertThat(StreamEventFields.withId(Buffer.buffer("id: 7\ndata: x\n\n"), "t:4").toString())
                .isEqualTo("id: 7\ndata: x\nid: t:4\n\n");
    }

    @Test
    void commentsAndBlankLinesAreNoEvents() {
        assertThat(StreamEventFields.isEvent(Buffer.buffer(": keepalive\n\n"))).isFalse();
        assertThat(StreamEventFields.isEvent(Buffer.buffer("\n"))).isFalse();
        assertThat(StreamEventFields.isEvent(Buffer.buffer("event: x\ndata: {}\n\n"))).isTrue();
    }

    @Test
    void theTaskAndItsEndAreReadInBothVersions() {
        assertThat(fields(V03_STATUS.formatted("working"))).isEqualTo(new StreamEventFields("t-1", false));
        assertThat(fields(V03_STATUS.formatted("completed"))).isEqualTo(new StreamEventFields("t-1", true));
        assertThat(fields(V10_STATUS.formatted("TASK_STATE_WORKING"))).isEqualTo(new StreamEventFields("t-2", false));
        assertThat(fields(V10_STATUS.formatted("TASK_STATE_FAILED"))).isEqualTo(new StreamEventFields("t-2", true));
        assertThat(fields("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\",\"id\":\"t-3\",\"status\":"
                + "{\"state\":\"submitted\"}}}")).isEqualTo(new StreamEventFields("t-3", false));
        assertThat(fields("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t-4\",\"status\":"
                + "{\"state\":\"TASK_STATE_CANCELED\"}}}}")).isEqualTo(new StreamEventFields("t-4", true));
        assertThat(fields("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"message\",\"messageId\":\"m\"}}"))
                .isEqualTo(new StreamEventFields(null, false));
        assertThat(StreamEventFields.of(Buffer.buffer("data: not json\n\n"))).isEqualTo(new StreamEventFields(null, false));
    }

    @Test
    void theBufferKeepsTheNewestEventsWithinItsLimitsAndNamesTheGap() {
        TaskBuffer b = new TaskBuffer("t", "ci", new StreamBufferSettings(3, 1 << 20, Duration.ofMinutes(1), 10, Duration.ZERO));
        Object source = new Object();
        assertThat(b.claim(source)).isTrue();
        assertThat(b.claim(new Object())).as("one live source per task").isFalse();
        for (int i = 0; i < 5; i++) {
            b.append(source, Buffer.buffer("data: " + V03_STATUS.formatted(i == 4 ? "completed" : "working") + "\n\n"));
        }
        b.release(source);
        assertThat(b.resume(1, null, null)).isEqualTo(new TaskBuffer.Resume.Gap(3, 5));
        assertThat(b.resume(9, null, null)).as("an id never given").isEqualTo(new TaskBuffer.Resume.Gap(3, 5));
        TaskBuffer.Resume.Ended ended = (TaskBuffer.Resume.Ended) b.resume(2, null, new Object());
        assertThat(ended.terminal()).isTrue();
        assertThat(ended.missed()).extracting(f -> f.toString().lines().filter(l -> l.startsWith("id: ")).findFirst().orElseThrow())
                .containsExactly("id: t:3", "id: t:4", "id: t:5");
        assertThat(b.live()).as("a task that ended gets no new source").isFalse();
    }

    @Test
    void aFollowerGetsTheLiveEventsAfterItsReplayAndIsEndedWithTheSource() {
        TaskBuffer b = new TaskBuffer("t", "ci", new StreamBufferSettings(100, 1 << 20, Duration.ofMinutes(1), 10, Duration.ZERO));
        Object source = new Object();
        b.claim(source);
        b.append(source, Buffer.buffer("data: 1\n\n"));
        b.append(source, Buffer.buffer("data: 2\n\n"));
        List<String> got = new ArrayList<>();
        boolean[] ended = {false};
        TaskBuffer.Follower follower = new TaskBuffer.Follower() {
            @Override
            public void event(Buffer frame) {
                got.add(frame.toString());
            }

            @Override
            public void end() {
                ended[0] = true;
            }
        };
        TaskBuffer.Resume.Following following = (TaskBuffer.Resume.Following) b.resume(1, follower, null);
        assertThat(following.missed()).extracting(Buffer::toString).containsExactly("data: 2\nid: t:2\n\n");
        b.append(source, Buffer.buffer("data: 3\n\n"));
        assertThat(got).containsExactly("data: 3\nid: t:3\n\n");
        b.release(source);
        assertThat(ended[0]).isTrue();
        assertThat(b.hasFollowers()).isFalse();
    }

    @Test
    void theBufferHoldsNoMoreBytesThanItsLimit() {
        TaskBuffer b = new TaskBuffer("t", "ci", new StreamBufferSettings(100, 40, Duration.ofMinutes(1), 10, Duration.ZERO));
        Object source = new Object();
        b.claim(source);
        for (int i = 0; i < 10; i++) {
            b.append(source, Buffer.buffer("data: 0123456789\n\n")); // 30 bytes with its id line
        }
        assertThat(b.resume(8, null, null)).isEqualTo(new TaskBuffer.Resume.Gap(10, 10));
    }

    private static StreamEventFields fields(String json) {
        return StreamEventFields.of(Buffer.buffer("data: " + json + "\n\n"));
    }

    @Test
    void aTasksBufferIsItsCallersOnlyAndTheLimitOfTasksPushesOutTheOldestEnded() {
        TaskStreams streams = new TaskStreams(new StreamBufferSettings(10, 1 << 20, Duration.ofMinutes(1), 2, Duration.ZERO));
        TaskBuffer mine = streams.open("agent", "t-1", "alice");
        assertThat(mine).isNotNull();
        assertThat(streams.open("agent", "t-1", "bob")).as("another caller's stream of the task is not buffered").isNull();
        assertThat(streams.open("agent", "t-1", "alice")).isSameAs(mine);
        assertThat(mine.ownedBy("bob")).isFalse();

        Object live = new Object();
        TaskBuffer second = streams.open("agent", "t-2", "alice");
        second.claim(live);
        // full: the ended t-1 goes, the live t-2 stays
        assertThat(streams.open("agent", "t-3", "alice")).isNotNull();
        assertThat(streams.find("agent", "t-1")).isNull();
        assertThat(streams.find("agent", "t-2")).isSameAs(second);
        // full of live streams: a new task is relayed without a buffer
        streams.find("agent", "t-3").claim(new Object());
        assertThat(streams.open("agent", "t-4", "alice")).isNull();
    }
}
