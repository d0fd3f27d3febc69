package io.sluice.stack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Whether {@code bench} may install a missing package (as root, with apt-get): {@code --yes}, or a
 * "y" typed at the terminal. With no terminal to ask and no {@code --yes}, nothing is installed.
 */
final class InstallConsent {
    private InstallConsent() {
    }

    /**
     * @param yes      {@code --yes} was given
     * @param terminal stdin is a terminal, so a person can answer
     */
    static boolean given(String what, boolean yes, boolean terminal, BufferedReader in, PrintStream out) throws IOException {
        if (yes) {
            return true;
        }
        if (!terminal) {
            return false;
        }
        out.print(what + " [y/N] ");
        out.flush();
        String answer = in.readLine();
        return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }
}
