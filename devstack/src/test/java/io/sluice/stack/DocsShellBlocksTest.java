package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** What DocsShellBlocksIT runs: the shell blocks of these pages, each run or marked with why not. */
class DocsShellBlocksTest {
    /** The pages whose blocks are run: the README, then every page of docs/ by name (not docs/notebook/, which is history). */
    static final List<Path> PAGES = pages();
    /** How many of their blocks are run, the rest being marked. */
    static final int BLOCKS_RUN = 12;

    private static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(Path.of("..", "README.md")));
        try (Stream<Path> docs = Files.list(Path.of("..", "docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(pages);
    }

    @Test
    void everyBlockNotRunSaysWhy() throws Exception {
        List<String> run = new ArrayList<>();
        List<String> notRun = new ArrayList<>();
        for (Path page : PAGES) {
            for (ShellBlocks.Block block : ShellBlocks.of(page).blocks()) {
                // By page, not line: the pages grow, and a test of where a block is would fail at every edit above it.
                (block.run() ? run : notRun).add(page.getFileName() + (block.run() ? "" : ": " + block.notRun()));
            }
        }
        assertEquals(BLOCKS_RUN, run.size(), "run: " + run);
        assertEquals(List.of("README.md: starts the stack the other blocks run against",
                "deployment.md: needs Docker and its compose plugin",
                "deployment.md: needs a Kubernetes cluster with the base applied",
                "deployment.md: needs Docker and your registry",
                "deployment.md: needs a Kubernetes cluster, and your passwords in place of the placeholders",
                "deployment.md: needs a Kubernetes cluster with the overlay applied",
                "operations.md: settings for a secured Kafka, with placeholders",
                "operations.md: a synopsis: options in brackets",
                "sending-events.md: a synopsis: options in brackets"), notRun);
    }

    @Test
    void aBlockIsMarkedByTheCommentOnTheLineBeforeItsFence() throws Exception {
        Path page = Files.createTempFile("page", ".md");
        try {
            Files.writeString(page, "text\n```bash\necho run\n```\n<!-- not run: needs a cluster -->\n```bash\nkubectl get pods\n```\n");
            assertEquals(List.of(new ShellBlocks.Block(2, "echo run\n", null), new ShellBlocks.Block(6, "kubectl get pods\n", "needs a cluster")),
                    ShellBlocks.of(page).blocks());
        } finally {
            Files.delete(page);
        }
    }

    @Test
    void aBlockInsideAListItemIsReadWithoutItsIndent() throws Exception {
        Path page = Files.createTempFile("page", ".md");
        try {
            Files.writeString(page, "1. **Build**:\n   <!-- not run: needs Docker -->\n   ```bash\n   docker build .\n   ```\n"
                    + "2. **Check**:\n   ```bash\n   echo \"one\n     two\"\n   ```\n");
            assertEquals(List.of(new ShellBlocks.Block(3, "docker build .\n", "needs Docker"), new ShellBlocks.Block(7, "echo \"one\n  two\"\n", null)),
                    ShellBlocks.of(page).blocks());
        } finally {
            Files.delete(page);
        }
    }
}
