package io.sluice.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell blocks of a page that a reader would paste (```bash fences, a list item's indented ones
 * too), each with the reason it is not run when the line before its fence says
 * {@code <!-- not run: reason -->}.
 */
record ShellBlocks(Path page, List<Block> blocks) {
    private static final Pattern NOT_RUN = Pattern.compile("^<!-- not run: (.*?) -->$");

    /** @param line the fence's line number; @param notRun why the docs test does not run it, null for a block it runs */
    record Block(int line, String text, String notRun) {
        boolean run() {
            return notRun == null;
        }
    }

    static ShellBlocks of(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```bash")) {
                continue;
            }
            Matcher mark = i == 0 ? null : NOT_RUN.matcher(lines.get(i - 1).strip());
            int indent = lines.get(i).indexOf('`');
            StringBuilder text = new StringBuilder();
            int fence = i + 1;
            for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                text.append(withoutIndent(lines.get(i), indent)).append('\n');
            }
            blocks.add(new Block(fence, text.toString(), mark != null && mark.matches() ? mark.group(1).strip() : null));
        }
        return new ShellBlocks(page, List.copyOf(blocks));
    }

    /** A line of a fenced block as Markdown reads it: up to the fence's indent of leading spaces removed. */
    private static String withoutIndent(String line, int indent) {
        int start = 0;
        while (start < indent && start < line.length() && line.charAt(start) == ' ') {
            start++;
        }
        return line.substring(start);
    }
}
