package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.TaskState;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DirectiveTest {

    private static Message text(String text) {
        return Message.userText("m-1", text);
    }

    private static Message withMetadata(String text, String directive) {
        ObjectNode metadata = JsonNodeFactory.instance.objectNode().put(Directive.METADATA_KEY, directive);
        return new Message("m-1", Role.USER, List.of(Part.text(text)), null, null, metadata, null, null);
    }

    @Test
    void aChatBridgePrefixLineIsSkippedSoTheDirectiveBelowItCounts() {
        Directive d = Directive.of(text("[Web: Ada (u1) <ada@example.com>]\n/ask What is your name?"), Behavior.echo());
        assertThat(d.behavior()).isInstanceOf(Behavior.Ask.class);

        Directive plain = Directive.of(text("[Slack: Bo (U1)]\nhello"), Behavior.echo());
        assertThat(plain.text()).isEqualTo("hello");

        Directive notAPrefix = Directive.of(text("[1, 2]\nhello"), Behavior.echo());
        assertThat(notAPrefix.text()).isEqualTo("[1, 2]\nhello");
    }

    @Test
    void plainTextGetsTheDefaultBehaviourAndIsEchoedWhole() {
        Directive directive = Directive.of(text("hello"), new Behavior.Slow(5));

        assertThat(directive).isEqualTo(new Directive(new Behavior.Slow(5), "hello"));
    }

    @Test
    void directiveLineChoosesTheBehaviourAndTheRestIsTheText() {
        Directive directive = Directive.of(text("/stream 4 25\nabcdefgh"), Behavior.echo());

        assertThat(directive).isEqualTo(new Directive(new Behavior.Stream(4, 25), "abcdefgh"));
    }

    @Test
    void directiveAloneIsItsOwnText() {
        assertThat(Directive.of(text("/slow 10"), Behavior.echo()).text()).isEqualTo("/slow 10");
    }

    @Test
    void metadataWinsOverTheTextAndLeavesTheTextWhole() {
        Directive directive = Directive.of(withMetadata("/reject\nhello", "/empty"), Behavior.echo());

        assertThat(directive).isEqualTo(new Directive(new Behavior.Empty(), "/reject\nhello"));
    }

    @Test
    void metadataDirectiveMayOmitTheSlash() {
        assertThat(Directive.of(withMetadata("x", "ask What colour?"), Behavior.echo()).behavior())
                .isEqualTo(new Behavior.Ask("What colour?"));
    }

    @Test
    void unknownSlashWordIsPlainText() {
        assertThat(Directive.of(text("/usr/bin is a path"), Behavior.echo()))
                .isEqualTo(new Directive(Behavior.echo(), "/usr/bin is a path"));
    }

    @Test
    void everyDirectiveReadsBackFromItsOwnText() {
        List<Behavior> all = List.of(new Behavior.Echo(), new Behavior.Stream(3, 20), new Behavior.Slow(100),
                new Behavior.Ask("Which one?"), new Behavior.Empty(), new Behavior.Fail("rate_limit", "Too many requests"),
                new Behavior.Reject(), new Behavior.NewContext(), new Behavior.RpcError(-32004, "busy now"),
                new Behavior.BareMessage(), new Behavior.HttpStatus(401), new Behavior.Silence(),
                new Behavior.Drop(2, new Behavior.Slow(50)), new Behavior.Hold(30, new Behavior.HttpStatus(503)));

        for (Behavior behavior : all) {
            assertThat(Behavior.parse(behavior.directive())).as(behavior.directive()).isEqualTo(behavior);
        }
    }

    @Test
    void streamDefaultsToThreeChunksWithoutDelay() {
        assertThat(Behavior.parse("/stream")).isEqualTo(new Behavior.Stream(3, 0));
    }

    @Test
    void dropAndHoldGoOnAsEchoWhenNothingFollows() {
        assertThat(Behavior.parse("/drop 1")).isEqualTo(new Behavior.Drop(1, new Behavior.Echo()));
        assertThat(Behavior.parse("/hold 5")).isEqualTo(new Behavior.Hold(5, new Behavior.Echo()));
    }

    @Test
    void askAndFailAloneTakeDefaultsSoTheDemoHintsWorkAsWritten() {
        assertThat(Behavior.parse("/ask")).isEqualTo(new Behavior.Ask(Behavior.Ask.DEFAULT_QUESTION));
        assertThat(Behavior.parse("/fail")).isEqualTo(new Behavior.Fail(Behavior.Fail.DEFAULT_CODE, "testkit failure"));
        assertThat(Behavior.parse("/fail rate_limit Too many")).isEqualTo(new Behavior.Fail("rate_limit", "Too many"));
        assertThat(Behavior.parse("/ask Which one?")).isEqualTo(new Behavior.Ask("Which one?"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/stream x", "/stream 0", "/slow", "/slow -1", "/error busy",
            "/http 42", "/http", "/empty now", "/drop 1 /message", "/bogus"})
    void malformedDirectiveIsRefusedWithTheProblemNamed(String line) {
        assertThatThrownBy(() -> Behavior.parse(line))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(line.split(" ")[0]);
    }

    @Test
    void malformedDirectiveLineInTextIsRefused() {
        assertThatThrownBy(() -> Directive.of(text("/slow soon\nhi"), Behavior.echo()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/slow");
    }

    @Test
    void metadataThatIsNotAStringIsRefused() {
        ObjectNode metadata = JsonNodeFactory.instance.objectNode();
        metadata.putObject(Directive.METADATA_KEY);
        Message message = new Message("m-1", Role.USER, List.of(Part.text("x")), null, null, metadata, null, null);

        assertThatThrownBy(() -> Directive.of(message, Behavior.echo())).hasMessageContaining(Directive.METADATA_KEY);
    }

    @Test
    void streamScriptSplitsTheTextIntoChunksThatJoinBack() {
        Script script = new Behavior.Stream(3, 10).script("abcdefg");

        List<Script.AddChunk> chunks = script.steps().stream()
                .filter(Script.AddChunk.class::isInstance).map(Script.AddChunk.class::cast).toList();
        assertThat(chunks).extracting(Script.AddChunk::text).containsExactly("ab", "cd", "efg");
        assertThat(chunks).extracting(Script.AddChunk::append).containsExactly(false, true, true);
        assertThat(chunks).extracting(Script.AddChunk::lastChunk).containsExactly(false, false, true);
        assertThat(script.steps()).filteredOn(Script.Pause.class::isInstance).hasSize(3);
        assertThat(script.steps().get(script.steps().size() - 1)).isEqualTo(new Script.SetStatus(TaskState.COMPLETED, null, null));
    }

    @Test
    void failScriptCarriesNumericCodesAsNumbers() {
        Script.SetStatus numeric = (Script.SetStatus) new Behavior.Fail("429", "slow down").script("x").steps().get(1);
        Script.SetStatus named = (Script.SetStatus) new Behavior.Fail("rate_limit", "slow down").script("x").steps().get(1);

        assertThat(numeric.metadata().get("code").isNumber()).isTrue();
        assertThat(named.metadata().get("code").asText()).isEqualTo("rate_limit");
        assertThat(named.text()).isEqualTo("slow down");
    }
}
