package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void aTokenNeverBeginsWithADashSoACommandLineCannotTakeItForAnOption() {
        for (int i = 0; i < 10_000; i++) {
            String token = Secrets.newToken();
            assertFalse(token.startsWith("-"), token);
            assertEquals(22, token.length(), token);
        }
    }

    @Test
    void aKeysHashIsItsSha256WhateverTheThreadHashedBefore() {
        Secrets.sha256("slk_another-key-hashed-first-on-this-thread");
        // FIPS 180-2's test vector for "abc".
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", HexFormat.of().formatHex(Secrets.sha256("abc")));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", HexFormat.of().formatHex(Secrets.sha256("abc")));
    }
}
