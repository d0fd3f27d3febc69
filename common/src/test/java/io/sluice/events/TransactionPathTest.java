package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The path of a transaction's URL, as {@link TransactionFields} reads it. */
class TransactionPathTest {

    @Test
    void pathOfAnAbsoluteUrlLeavesOutHostQueryAndFragment() {
        assertEquals("/api/users/42", TransactionFields.pathOf("https://shop.example:8443/api/users/42?page=2#top"));
    }

    @Test
    void pathOfARootRelativeUrlIsTheUrlUpToTheQuery() {
        assertEquals("/users/42", TransactionFields.pathOf("/users/42?x=1"));
    }

    @Test
    void pathStaysPercentEncoded() {
        assertEquals("/files/a%20b", TransactionFields.pathOf("http://h/files/a%20b"));
    }

    @Test
    void aUrlWithoutPathHasAnEmptyPath() {
        assertEquals("", TransactionFields.pathOf("https://shop.example"));
        assertEquals("", TransactionFields.pathOf("https://shop.example?q=1"));
    }

    @Test
    void aSchemeInsideTheQueryDoesNotMakeAnAbsoluteUrl() {
        assertEquals("/redirect", TransactionFields.pathOf("/redirect?to=https://other.example/x"));
    }

    @Test
    void relativeOpaqueAndEmptyUrlsHaveNoPath() {
        assertEquals("", TransactionFields.pathOf("users/42"));
        assertEquals("", TransactionFields.pathOf("mailto:someone@example.com"));
        assertEquals("", TransactionFields.pathOf("//cdn.example/x.js"));
        assertEquals("", TransactionFields.pathOf("1http://h/x"));
        assertEquals("", TransactionFields.pathOf(""));
    }
}
