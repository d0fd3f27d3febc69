package io.sluice.processor.rows;

/**
 * The one builder of the text keys the processor writes: output records' keys (compaction and
 * replay keep the newest row of each) and the keys of the limits' and outcomes' stores (and so of
 * their changelogs). Running deployments hold them all, so each form writes the bytes it always has:
 * a part written {@link #sized} (its length first) ends where its length says, whatever it holds;
 * parts told apart by a {@link #nul} hold none (a project token, a dimension's name) or come last.
 */
public final class KeyText {
    private KeyText() {
    }

    /** Columns each as {@code length:value/}: no two rows share a key whatever their strings hold ({@code /} included). */
    public static String columns(Object... columns) {
        StringBuilder key = new StringBuilder();
        for (Object column : columns) {
            String value = String.valueOf(column);
            key.append(value.length()).append(':').append(value).append('/');
        }
        return key.toString();
    }

    /**
     * Columns joined with {@code /}: the keys of traffic-1m's and errors-1m's rows. Their topics hold
     * rows under these keys, and a row's newer copy must replace the older under the same key.
     */
    public static String joined(Object... columns) {
        StringBuilder key = new StringBuilder();
        for (Object column : columns) {
            if (!key.isEmpty()) {
                key.append('/');
            }
            key.append(column);
        }
        return key.toString();
    }

    /** The value's length, {@code :}, the value, then the rest: the value ends where its length says. */
    public static String sized(String value, String rest) {
        return value.length() + ":" + value + rest;
    }

    /** Two parts with a NUL between them. */
    public static String nul(String first, String second) {
        return first + '\0' + second;
    }

    /** Three parts with a NUL between each two. */
    public static String nul(String first, String second, String third) {
        return first + '\0' + second + '\0' + third;
    }
}
