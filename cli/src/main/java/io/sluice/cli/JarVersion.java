package io.sluice.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code ./sluice --version}: the Implementation-Version of the jar the command line was built into. */
public final class JarVersion implements IVersionProvider {
    /** The version, or "development build" when run from classes rather than a jar. */
    public static String version() {
        String version = SluiceCli.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"sluice " + version()};
    }
}
