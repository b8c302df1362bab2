/**
 * Watch mode's cluster side ({@code serve --kubernetes}): informers on the {@code switchboard.dev/v1} resources
 * and the Secrets of one namespace ({@link KubernetesWatch}), reconciled with the file loader's own validation into the
 * configuration in force and a {@code Ready} condition per resource ({@link Reconciler}, {@link Condition}). Uses only
 * {@code config} of ours; the command line's watch mode applies the result to the running app.
 */
package dev.switchboard.kubernetes;
