/**
 * The configuration's validated model: the Kubernetes-style YAML documents (AgentBackend, Binding, SlackApp,
 * Trigger, Server) read by {@link ConfigLoader}, each held to its description in {@link ResourceSchemas} by
 * {@link ShapeCheck}, cross-references checked on the whole {@link SwitchboardConfig}. The same descriptions generate the
 * CRDs in {@code deploy/crds/} ({@link CrdGenerator}). The file loader and the Kubernetes watch share it; it sits above
 * the features because it builds their settings types.
 */
package dev.switchboard.config;
