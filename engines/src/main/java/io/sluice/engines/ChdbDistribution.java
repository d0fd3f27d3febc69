package io.sluice.engines;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The ClickHouse engine for local runs and tests: {@code libchdb.so} (ClickHouse 26.7 as a
 * library) from the npm package {@value #NPM_PACKAGE}, plus a tiny C launcher that runs it as a
 * server. Both are installed once into a cache directory outside the repository and reused.
 *
 * <p>Production does not use this: there the same code talks to the official
 * {@code clickhouse/clickhouse-server} image or a ClickHouse cluster.
 */
public final class ChdbDistribution {
    public static final String NPM_PACKAGE = "@chdb/lib-linux-x64-gnu@26.7.3-stable.1";
    private static final String VERSION_DIR = "chdb-26.7.3-stable.1";
    private static final long INSTALL_TIMEOUT_MINUTES = 15;

    private final Path home;

    private ChdbDistribution(Path home) {
        this.home = home;
    }

    /** The cache directory: {@code $SLUICE_CACHE_DIR}, else {@code ~/.cache/sluice}. */
    public static Path defaultCacheDir() {
        String configured = System.getenv("SLUICE_CACHE_DIR");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "sluice");
    }

    /** Installs what is missing (npm download, gcc build), safely across concurrent JVMs. */
    public static ChdbDistribution ensureInstalled(Path cacheDir) {
        Path home = cacheDir.resolve(VERSION_DIR);
        try {
            Files.createDirectories(home);
            try (FileChannel lockFile = FileChannel.open(home.resolve(".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lockFile.lock()) {
                ChdbDistribution distribution = new ChdbDistribution(home);
                if (!Files.isRegularFile(distribution.library())) {
                    distribution.downloadLibrary();
                }
                if (!Files.isExecutable(distribution.launcher())) {
                    distribution.buildLauncher();
                }
                return distribution;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install ClickHouse (chdb) into " + home, e);
        }
    }

    public Path library() {
        return home.resolve("libchdb.so");
    }

    public Path launcher() {
        return home.resolve("chdb-server");
    }

    private void downloadLibrary() throws IOException {
        Path work = Files.createTempDirectory(home, "download-");
        run(work, List.of("npm", "pack", "--silent", NPM_PACKAGE), "download " + NPM_PACKAGE + " with npm");
        try (var tarballs = Files.list(work)) {
            Path tarball = tarballs.filter(p -> p.toString().endsWith(".tgz")).findFirst()
                    .orElseThrow(() -> new IOException("npm pack left no .tgz in " + work));
            run(work, List.of("tar", "xzf", tarball.toString(), "package/libchdb.so"), "unpack " + tarball);
        }
        // Move into place last, so an interrupted download is never mistaken for an installed one.
        Files.move(work.resolve("package/libchdb.so"), library(), StandardCopyOption.ATOMIC_MOVE);
        Directories.deleteRecursively(work);
    }

    private void buildLauncher() throws IOException {
        Path source = home.resolve("chdb-server.c");
        try (InputStream in = ChdbDistribution.class.getResourceAsStream("chdb-server.c")) {
            if (in == null) {
                throw new IOException("chdb-server.c is missing from the sluice-engines jar");
            }
            Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
        }
        Path built = home.resolve("chdb-server.tmp");
        run(home, List.of("cc", "-O2", "-o", built.toString(), source.toString(), "-ldl", "-lpthread"),
                "compile the ClickHouse launcher with cc (gcc)");
        Files.move(built, launcher(), StandardCopyOption.ATOMIC_MOVE);
    }

    private static void run(Path dir, List<String> command, String what) throws IOException {
        Path log = dir.resolve("install.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!process.waitFor(INSTALL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("timed out trying to " + what + " (see " + log + ")");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while trying to " + what, e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("failed to " + what + " (exit " + process.exitValue() + "): "
                    + Files.readString(log).strip());
        }
    }
}
