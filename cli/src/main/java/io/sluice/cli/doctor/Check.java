package io.sluice.cli.doctor;

/**
 * One line of {@code ./sluice doctor}.
 *
 * @param fix what to do when it failed; null when it passed
 */
record Check(String name, boolean ok, String detail, String fix) {
    static Check passed(String name, String detail) {
        return new Check(name, true, detail, null);
    }

    static Check failed(String name, String detail, String fix) {
        return new Check(name, false, detail, fix);
    }

    /** A check that could not run because one it needs failed. */
    static Check notChecked(String name, String because) {
        return new Check(name, false, "not checked: " + because, "fix that first");
    }

    String line() {
        return (ok ? "✓ " : "✗ ") + name + ": " + detail + (ok ? "" : " → " + fix);
    }
}
