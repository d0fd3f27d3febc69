package io.sluice.cli.deadletters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** What a stranger put in an event reaches the operator's terminal as text, never as a command to it. */
class SafeTextTest {
    @Test
    void escapeSequencesAreShownNotObeyed() {
        assertEquals("\\u001b]0;pwned\\u0007\\u001b[2Jok", SafeText.of("\u001b]0;pwned\u0007\u001b[2Jok", 100));
    }

    @Test
    void newlinesCarriageReturnsAndC1ControlsAreEscaped() {
        assertEquals("a\\u000ab\\u000dc\\u009bd\\u007f", SafeText.of("a\nb\rc\u009bd\u007f", 100));
    }

    @Test
    void bidirectionalOverridesAreEscaped() {
        assertEquals("user\\u202egnp.exe", SafeText.of("user\u202egnp.exe", 100));
    }

    @Test
    void loneSurrogatesAreEscapedAndPairsKept() {
        assertEquals("\\ud800x😀", SafeText.of("\ud800x😀", 100));
    }

    @Test
    void invalidUtf8IsShownWithReplacementCharactersAndSaidSo() {
        assertEquals("a\ufffdb (not valid UTF-8: shown with U+FFFD)", SafeText.of(new byte[] {'a', (byte) 0xff, 'b'}, 100));
    }

    @Test
    void longTextIsCutSayingHowMuchWasLeftOut() {
        assertEquals("abcd… (6 more characters)", SafeText.of("abcdefghij".getBytes(StandardCharsets.UTF_8), 4));
    }
}
