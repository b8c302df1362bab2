package dev.switchboard.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.registry.RegistrationStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** Dynamic registrations in the {@code agent_registration} table. */
public final class SqlRegistrationStore implements RegistrationStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DataSource dataSource;

    public SqlRegistrationStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public List<RegisteredAgent> loadAll() {
        List<RegisteredAgent> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT agent_id, registration, registered_at, last_seen FROM agent_registration");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.add(fromRow(rs.getString(1), JSON.readTree(rs.getString(2)),
                        Instant.parse(rs.getString(3)), Instant.parse(rs.getString(4))));
            }
        } catch (SQLException | java.io.IOException e) {
            throw new StoreException("cannot load agent registrations", e);
        }
        return out;
    }

    @Override
    public void save(RegisteredAgent a) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "INSERT INTO agent_registration (agent_id, registration, registered_at, last_seen) VALUES (?, ?, ?, ?) "
                                + "ON CONFLICT (agent_id) DO UPDATE SET registration = excluded.registration, "
                                + "last_seen = excluded.last_seen")) {
            s.setString(1, a.id());
            s.setString(2, JSON.writeValueAsString(toJson(a)));
            s.setString(3, a.registeredAt().toString());
            s.setString(4, a.lastSeen().toString());
            s.executeUpdate();
        } catch (SQLException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StoreException("cannot save agent registration " + a.id(), e);
        }
    }

    @Override
    public java.util.Optional<RegisteredAgent> load(String id) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT registration, registered_at, last_seen FROM agent_registration WHERE agent_id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return java.util.Optional.empty();
                }
                return java.util.Optional.of(fromRow(id, JSON.readTree(rs.getString(1)), Instant.parse(rs.getString(2)),
                        Instant.parse(rs.getString(3))));
            }
        } catch (SQLException | java.io.IOException e) {
            throw new StoreException("cannot load agent registration " + id, e);
        }
    }

    @Override
    public boolean touch(String id, Instant lastSeen) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("UPDATE agent_registration SET last_seen = ? WHERE agent_id = ?")) {
            s.setString(1, lastSeen.toString());
            s.setString(2, id);
            return s.executeUpdate() > 0;
        } catch (SQLException e) {
            throw new StoreException("cannot record a heartbeat of " + id, e);
        }
    }

    /**
     * One statement deletes every registration last seen before {@code cutoff} and names them: replicas may all run
     * it, each row goes once (PostgreSQL only: {@code last_seen} is compared as a timestamp, not as text, whose
     * ISO-8601 forms of varying precision do not sort as instants).
     */
    @Override
    public List<String> deleteSeenBefore(Instant cutoff) {
        try (Connection c = dataSource.getConnection()) {
            if (Database.Dialect.of(c) != Database.Dialect.POSTGRESQL) {
                // SQLite (one process): its text has no instant type; compare here
                List<String> gone = loadAll().stream().filter(a -> a.lastSeen().isBefore(cutoff))
                        .map(RegisteredAgent::id).toList();
                gone.forEach(this::delete);
                return gone;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot delete expired agent registrations", e);
        }
        List<String> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("DELETE FROM agent_registration "
                        + "WHERE CAST(last_seen AS TIMESTAMPTZ) < CAST(? AS TIMESTAMPTZ) RETURNING agent_id")) {
            s.setString(1, cutoff.toString());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot delete expired agent registrations", e);
        }
        return out;
    }

    @Override
    public RegisteredAgent asStored(RegisteredAgent a) {
        return fromRow(a.id(), toJson(a), a.registeredAt(), a.lastSeen());
    }

    @Override
    public void delete(String id) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("DELETE FROM agent_registration WHERE agent_id = ?")) {
            s.setString(1, id);
            s.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot delete agent registration " + id, e);
        }
    }

    private static ObjectNode toJson(RegisteredAgent a) {
        ObjectNode n = JSON.createObjectNode();
        n.put("name", a.name());
        n.put("url", a.url());
        n.put("description", a.description());
        n.put("version", a.version());
        n.set("skills", JSON.valueToTree(a.skills()));
        n.set("defaultInputModes", JSON.valueToTree(a.defaultInputModes()));
        n.set("defaultOutputModes", JSON.valueToTree(a.defaultOutputModes()));
        n.set("protocolVersions", JSON.valueToTree(a.protocolVersions()));
        return n;
    }

    private static RegisteredAgent fromRow(String id, JsonNode n, Instant registeredAt, Instant lastSeen) {
        List<AgentSkill> skills = new ArrayList<>();
        for (JsonNode s : n.path("skills")) {
            skills.add(new AgentSkill(s.path("id").asText(), s.path("name").asText(), s.path("description").asText(""),
                    strings(s.path("tags")), null, null, null));
        }
        return new RegisteredAgent(id, n.path("name").asText(), n.path("url").asText(), n.path("description").asText(""),
                n.path("version").asText(""), skills, strings(n.path("defaultInputModes")),
                strings(n.path("defaultOutputModes")), strings(n.path("protocolVersions")), null,
                AgentLimits.DEFAULTS, AgentOrigin.DYNAMIC, registeredAt, lastSeen);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
