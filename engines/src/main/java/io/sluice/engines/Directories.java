package io.sluice.engines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** File-tree chores shared by the engines' users: the local stack, the tests and the benchmark. */
public final class Directories {
    private Directories() {
    }

    /** Deletes {@code root} and everything under it; nothing when it does not exist. */
    public static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
