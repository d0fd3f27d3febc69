package io.sluice.gateway.scrub;

/** A text with parts replaced by {@link Scrubber#MARKER}, left to right; copied only once something is. */
final class Replaced {
    private final String text;
    private StringBuilder out;
    private int copied;

    Replaced(String text) {
        this.text = text;
    }

    /** Replaces {@code [start, end)}, which begins at or after the end of the last part replaced. */
    void replace(int start, int end) {
        if (out == null) {
            out = new StringBuilder(text.length());
        }
        out.append(text, copied, start).append(Scrubber.MARKER);
        copied = end;
    }

    /** The text with its parts replaced: the text itself when none was. */
    String result() {
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }
}
