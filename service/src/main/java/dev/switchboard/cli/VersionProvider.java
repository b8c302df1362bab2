package dev.switchboard.cli;

import picocli.CommandLine.IVersionProvider;

/** Reads the version from the jar manifest, "dev" when run from classes. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"switchboard " + (v == null ? "dev" : v)};
    }
}
