package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What ReadmeShellBlocksIT runs: the README's shell blocks, each run or marked with why not. */
class ReadmeShellBlocksTest {
    static final Path README = Path.of("..", "README.md");

    @Test
    void theReadmesShellBlocksAreRunButTheOneThatStartsTheStack() throws Exception {
        List<ShellBlocks.Block> blocks = ShellBlocks.of(README).blocks();
        assertEquals(List.of("./sluice dev starts the stack the other blocks run against"),
                blocks.stream().filter(block -> !block.run()).map(block -> block.text().strip().split(" ")[0] + " "
                        + block.text().strip().split(" ")[1] + " " + block.notRun()).toList());
        assertEquals(6, blocks.size(), "the README's shell blocks");
    }

    @Test
    void aBlockIsMarkedByTheCommentOnTheLineBeforeItsFence() throws Exception {
        Path page = java.nio.file.Files.createTempFile("page", ".md");
        try {
            java.nio.file.Files.writeString(page, "text\n```bash\necho run\n```\n<!-- not run: needs a cluster -->\n```bash\nkubectl get pods\n```\n");
            assertEquals(List.of(new ShellBlocks.Block(2, "echo run\n", null), new ShellBlocks.Block(6, "kubectl get pods\n", "needs a cluster")),
                    ShellBlocks.of(page).blocks());
        } finally {
            java.nio.file.Files.delete(page);
        }
    }
}
