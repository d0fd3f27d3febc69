package io.sluice.cli;

/**
 * The shell variables the README's commands use, TOKEN and KEY, as one line to paste or {@code eval}:
 * a token and a key are URL-safe base64 with a prefix, so they need no quoting.
 */
public final class ShellVariables {
    private ShellVariables() {
    }

    public static String exportLine(String token, String key) {
        return "export TOKEN=" + token + " KEY=" + key;
    }
}
