/**
 * {@code switchboard demo}'s agents (O1): testkit agents served in-process and registered in the gateway, plugged into
 * the service's {@code demo} command as its {@link dev.switchboard.cli.Demo}. A module of its own so that the testkit
 * stays out of the production jar and image: this module's jar goes on the classpath beside
 * {@code switchboard-app.jar} only for the demo.
 */
package dev.switchboard.demo;
