-- Dynamic registrations of the gateway's registry (G9). Agents of the config file are not stored.
CREATE TABLE agent_registration (
    agent_id      TEXT PRIMARY KEY,
    registration  TEXT NOT NULL,   -- the registration as JSON: name, url, description, version, skills, modes, versions
    registered_at TEXT NOT NULL,   -- ISO-8601 instant, kept across re-registrations
    last_seen     TEXT NOT NULL    -- ISO-8601 instant, moved by heartbeats and re-registrations
);
