package io.sluice.processor.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TransactionParserTest {

    @Test
    void pathOfAnAbsoluteUrlLeavesOutHostQueryAndFragment() {
        assertEquals("/api/users/42", TransactionParser.pathOf("https://shop.example:8443/api/users/42?page=2#top"));
    }

    @Test
    void pathOfARootRelativeUrlIsTheUrlUpToTheQuery() {
        assertEquals("/users/42", TransactionParser.pathOf("/users/42?x=1"));
    }

    @Test
    void pathStaysPercentEncoded() {
        assertEquals("/files/a%20b", TransactionParser.pathOf("http://h/files/a%20b"));
    }

    @Test
    void aUrlWithoutPathHasAnEmptyPath() {
        assertEquals("", TransactionParser.pathOf("https://shop.example"));
        assertEquals("", TransactionParser.pathOf("https://shop.example?q=1"));
    }

    @Test
    void aSchemeInsideTheQueryDoesNotMakeAnAbsoluteUrl() {
        assertEquals("/redirect", TransactionParser.pathOf("/redirect?to=https://other.example/x"));
    }

    @Test
    void relativeOpaqueAndEmptyUrlsHaveNoPath() {
        assertEquals("", TransactionParser.pathOf("users/42"));
        assertEquals("", TransactionParser.pathOf("mailto:someone@example.com"));
        assertEquals("", TransactionParser.pathOf("//cdn.example/x.js"));
        assertEquals("", TransactionParser.pathOf("1http://h/x"));
        assertEquals("", TransactionParser.pathOf(""));
    }
}
