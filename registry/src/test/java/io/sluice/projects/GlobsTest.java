package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class GlobsTest {
    @Test
    void aPatternMatchesTheWholeTextIgnoringCase() {
        Globs globs = Globs.of(List.of("filteredexception*", "*this is a filtered exception.", "this is"));
        assertTrue(globs.matches("FilteredException: This is a filtered exception."));
        assertTrue(globs.matches("This is a filtered exception."));
        assertFalse(globs.matches("This is an unfiltered exception."));
        assertFalse(globs.matches("hi this is a legit log message"));
    }

    @Test
    void alternativesInBracesMatchAnyOfThem() {
        // Relay's test for React's hydration errors.
        Globs globs = Globs.of(List.of("*https://reactjs.org/docs/error-decoder.html?invariant={418,419,422,423,425}*"));
        assertTrue(globs.matches("Error: Minified React error #423; visit https://reactjs.org/docs/error-decoder.html?invariant=423 "
                + "for the full message or use the non-minified dev environment for full errors and additional helpful warnings."));
        assertFalse(globs.matches("Error: Minified React error #424; visit https://reactjs.org/docs/error-decoder.html?invariant=424 "
                + "for the full message"));
    }

    @Test
    void aSetMatchesOneOfItsCharactersAndRegexSyntaxMatchesItself() {
        Globs globs = Globs.of(List.of("*[/-]live", "a.b(c)+"));
        assertTrue(globs.matches("GET /live"));
        assertTrue(globs.matches("x-live"));
        assertFalse(globs.matches("xlive"));
        assertTrue(globs.matches("a.b(c)+"));
        assertFalse(globs.matches("axb(c)+"));
    }

    @Test
    void manyStarsOverALongTextThatAlmostMatchesAnswerInLinearTime() {
        // java.util.regex backtracked over every split of the text: 24.7 s on 128 characters.
        Globs globs = Globs.of(List.of("*a*a*a*a*a*a*a*a*a*a*b", "*script error*at*line*:"));
        String text = "a".repeat(Globs.MAX_TEXT);
        // Preemptive: the old matcher is not interruptible, and this test must end to report it.
        assertTimeoutPreemptively(Duration.ofMillis(100), () -> {
            assertFalse(globs.matches(text));
            assertFalse(globs.matches("script error at line 1 ".repeat(44)));
        });
    }

    @Test
    void aStarBacktracksToItsLastPositionAndAQuestionMarkTakesOneCharacter() {
        Globs globs = Globs.of(List.of("*ab?d*x", "{GET,POST} /a*/{b,c}"));
        assertTrue(globs.matches("aab abcd abXdyx"));
        assertFalse(globs.matches("aab abd abdx"));
        assertTrue(globs.matches("post /a/b/c"));
        assertTrue(globs.matches("GET /a/x/b"));
        assertFalse(globs.matches("PUT /a/x/b"));
    }

    @Test
    void escapedSyntaxAndUnclosedBracketsMatchThemselves() {
        Globs globs = Globs.of(List.of("\\*\\?", "[ab", "x,y}", "{a,b"));
        assertTrue(globs.matches("*?"));
        assertFalse(globs.matches("x?"));
        assertTrue(globs.matches("[AB"));
        assertTrue(globs.matches("x,y}"));
        assertTrue(globs.matches("b"));
        assertFalse(globs.matches("{a,b"));
    }

    @Test
    void aPatternOfMoreThan64AlternativesIsRefused() {
        assertEquals(64, Globs.of(List.of("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")).patterns().size() * 64);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Globs.of(List.of("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")));
        assertEquals("a pattern has at most 64 alternatives once its {..} are expanded", refused.getMessage());
    }

    @Test
    void blankPatternsAreDroppedAndMatchNothing() {
        Globs globs = Globs.of(List.of("", "  "));
        assertTrue(globs.isEmpty());
        assertFalse(globs.matches(""));
    }

    @Test
    void moreThanFiftyPatternsAreRefused() {
        List<String> many = new ArrayList<>(Collections.nCopies(51, "x*"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Globs.of(many));
        assertEquals("at most 50 patterns, got 51", refused.getMessage());
    }

    @Test
    void aPatternLongerThan256CharactersIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Globs.of(List.of("x".repeat(257))));
        assertEquals("a pattern has at most 256 characters, got 257", refused.getMessage());
    }
}
