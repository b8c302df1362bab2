-- Several replicas (issue 12): every change of agent_registration is announced on the channel switchboard_registry,
-- whichever replica (or statement: the TTL expiry's DELETE) made it. Each replica LISTENs and updates its in-memory
-- registry: 'R <id>' means "reload this agent from the table" (inserted, changed or deleted); 'S <id> <last_seen>'
-- means only last_seen moved (a heartbeat), which needs no reload. PostgreSQL delivers a notification after its
-- transaction commits, so a replica that reloads on 'R' reads the committed row.
CREATE FUNCTION switchboard_registry_notify() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.registration = OLD.registration AND NEW.registered_at = OLD.registered_at THEN
        PERFORM pg_notify('switchboard_registry', 'S ' || NEW.agent_id || ' ' || NEW.last_seen);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('switchboard_registry', 'R ' || OLD.agent_id);
    ELSE
        PERFORM pg_notify('switchboard_registry', 'R ' || NEW.agent_id);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER agent_registration_notify
    AFTER INSERT OR UPDATE OR DELETE ON agent_registration
    FOR EACH ROW EXECUTE FUNCTION switchboard_registry_notify();
