/**
 * The configuration's validated model: the Kubernetes-style YAML documents (AgentBackend, Binding, SlackApp, Trigger,
 * Server, Secret) read by {@link dev.switchboard.config.ConfigLoader}. Each kind's fields are described once, in
 * {@link dev.switchboard.config.ResourceSchemas}; each document is held to that description
 * ({@link dev.switchboard.config.ShapeCheck}) and read by its kind's reader with the description's defaults, and the
 * references between documents are checked on the whole {@link dev.switchboard.config.SwitchboardConfig}. The same
 * description generates the CRDs in {@code deploy/crds/} and the reference in {@code docs/configuration.md}. The file
 * loader and the Kubernetes watch share it; it sits above the features because it builds their settings types.
 */
package dev.switchboard.config;
