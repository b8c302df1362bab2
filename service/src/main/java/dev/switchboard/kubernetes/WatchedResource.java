package dev.switchboard.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One Switchboard resource as the API server holds it now.
 *
 * @param body the whole object (apiVersion, kind, metadata, spec), as the configuration file would hold it
 * @param resourceVersion the version the API server gave this state (opaque: only compared for equality)
 * @param ready the Ready condition it carries now, or null: what a status write compares with
 */
record WatchedResource(String kind, String name, long generation, String resourceVersion, JsonNode body,
        Condition ready) {

    Key key() {
        return new Key(kind, name);
    }

    record Key(String kind, String name) {
        @Override
        public String toString() {
            return kind + " " + name;
        }
    }
}
