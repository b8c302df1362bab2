package dev.switchboard.chat.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;

/** The chat API's JSON for a thread, a post and a person: what the page reads, the live stream included. */
final class ChatJson {

    static final ObjectMapper JSON = new ObjectMapper();

    private ChatJson() {}

    static ObjectNode thread(ChatThread t) {
        ObjectNode n = JSON.createObjectNode();
        n.put("threadId", t.threadId());
        n.put("channel", t.channel());
        n.put("title", t.title());
        n.put("createdAt", t.createdAt().toString());
        n.put("lastActivity", t.lastActivity().toString());
        return n;
    }

    static ObjectNode post(Post p) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", p.id());
        n.put("kind", p.kind());
        n.put("text", p.text());
        if (p.author() == null) {
            n.putNull("author");
        } else {
            n.set("author", actor(p.author()));
        }
        n.put("turnMessageId", p.turnMessageId());
        n.put("state", p.state());
        n.put("createdAt", p.createdAt().toString());
        n.put("updatedAt", p.updatedAt().toString());
        n.put("seq", p.seq());
        if (p.data() != null) {
            // a kagent question's request (tools to approve, or questions and choices), or a step card
            try {
                n.set("data", JSON.readTree(p.data()));
            } catch (JsonProcessingException e) {
                n.putNull("data");
            }
        }
        return n;
    }

    static ObjectNode actor(Actor a) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", a.id());
        n.put("name", a.name());
        n.put("email", a.email());
        return n;
    }
}
