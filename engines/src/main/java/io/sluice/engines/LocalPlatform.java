package io.sluice.engines;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether this machine can run the local engines: ClickHouse comes from chdb's
 * {@code linux-x64-gnu} library ({@link ChdbDistribution}), so Linux on x86-64 with glibc. Said in
 * one line at the start, rather than as a download or a linker error minutes later.
 */
public record LocalPlatform(String osName, String osArch, boolean glibc) {
    /** glibc's dynamic loader on x86-64; musl (Alpine) has {@code /lib/ld-musl-x86_64.so.1} instead. */
    private static final Path GLIBC_LOADER = Path.of("/lib64/ld-linux-x86-64.so.2");

    public static LocalPlatform current() {
        return new LocalPlatform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""), Files.exists(GLIBC_LOADER));
    }

    /** Why the local engines cannot run here, in one line; empty when they can. */
    public Optional<String> unsupported() {
        boolean linux = osName.toLowerCase(Locale.ROOT).startsWith("linux");
        boolean x86 = osArch.equals("amd64") || osArch.equals("x86_64");
        if (linux && x86 && glibc) {
            return Optional.empty();
        }
        String here = osName + " on " + osArch + (linux && x86 ? " without glibc" : "");
        return Optional.of("the local stack needs Linux on x86-64 with glibc (ClickHouse runs from chdb's "
                + "linux-x64-gnu library); this is " + here + ". Run `docker compose up --build` instead.");
    }
}
