package io.sluice.gateway.otlp;

import java.util.List;

/**
 * What a span became: a handled request (a transaction, and an error per exception event), or
 * another span, not stored itself (its exception events still are errors), or refused, with why.
 */
public record MappedSpan(Kind kind, List<OtlpItem> items, String rejection) {
    public enum Kind {
        /** A server span: one handled request. */
        REQUEST,
        /** Any other span: not stored, counted as such. */
        NOT_STORED,
        /** A span that cannot be read (its ids, its text): nothing of it is stored. */
        REJECTED
    }

    static MappedSpan rejected(String why) {
        return new MappedSpan(Kind.REJECTED, List.of(), why);
    }
}
