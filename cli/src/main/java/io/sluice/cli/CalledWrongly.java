package io.sluice.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/** The one line a wrongly called command prints: what was wrong, a suggestion for a typo, where to look. */
final class CalledWrongly {
    /** A suggestion is at most this many edits away (and at most a third of the typed word). */
    private static final int MOST_EDITS = 2;

    private CalledWrongly() {
    }

    static String message(ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return e.getMessage();
        }
        CommandLine command = e.getCommandLine();
        String argument = unmatched.getUnmatched().get(0);
        String path = path(command);
        String what;
        if (unmatched.isUnknownOption()) {
            what = "unknown option '" + argument + "'" + (path.isEmpty() ? "" : " for " + path);
        } else if (!command.getSubcommands().isEmpty()) {
            what = "unknown command '" + (path.isEmpty() ? "" : path + " ") + argument + "'";
        } else {
            what = "unexpected argument '" + argument + "' for " + path;
        }
        List<String> candidates = unmatched.isUnknownOption()
                ? command.getCommandSpec().options().stream().filter(option -> !option.hidden()).map(OptionSpec::longestName).toList()
                : command.getSubcommands().entrySet().stream().filter(sub -> !sub.getValue().getCommandSpec().usageMessage().hidden())
                        .map(Map.Entry::getKey).toList();
        List<String> suggestions = closest(argument, candidates);
        return suggestions.isEmpty() ? what : what + "; did you mean " + String.join(" or ", suggestions) + "?";
    }

    /** Picocli lets unmatched arguments pass when a help option is among them: then refuse them here. */
    static void refuseUnmatched(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            if (!level.unmatched().isEmpty() && level.commandSpec().unmatchedArgsBindings().isEmpty()) {
                throw new UnmatchedArgumentException(level.commandSpec().commandLine(), level.unmatched());
            }
        }
    }

    /** The candidates fewest edits away from what was typed, if that is close enough to be a typo. */
    static List<String> closest(String typed, List<String> candidates) {
        int allowed = Math.min(MOST_EDITS, Math.max(1, typed.length() / 3));
        int best = Integer.MAX_VALUE;
        List<String> closest = new ArrayList<>();
        for (String candidate : candidates) {
            int edits = edits(typed, candidate);
            if (edits > allowed || edits > best) {
                continue;
            }
            if (edits < best) {
                best = edits;
                closest.clear();
            }
            closest.add(candidate);
        }
        return closest;
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    private static int edits(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** {@code ./sluice help} at the top, else that command's {@code --help}. */
    static String whereToLook(CommandLine command) {
        String path = command == null ? "" : path(command);
        return path.isEmpty() ? "./sluice help lists every command" : "./sluice " + path + " --help shows its options";
    }

    /** "projects create" for that command; "" for the root. */
    private static String path(CommandLine command) {
        String qualified = command.getCommandSpec().qualifiedName(" ");
        int space = qualified.indexOf(' ');
        return space < 0 ? "" : qualified.substring(space + 1);
    }
}
