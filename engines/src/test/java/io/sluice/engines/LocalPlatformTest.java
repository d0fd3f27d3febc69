package io.sluice.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class LocalPlatformTest {
    @Test
    void linuxOnX86WithGlibcRunsTheLocalEngines() {
        assertEquals(Optional.empty(), new LocalPlatform("Linux", "amd64", true).unsupported());
    }

    @Test
    void aMacIsToldInOneLineToUseCompose() {
        String why = new LocalPlatform("Mac OS X", "aarch64", false).unsupported().orElseThrow();
        assertTrue(why.contains("Mac OS X on aarch64") && why.contains("docker compose up"), why);
        assertEquals(1, why.lines().count());
    }

    @Test
    void linuxWithoutGlibcIsNamedAsSuch() {
        assertTrue(new LocalPlatform("Linux", "amd64", false).unsupported().orElseThrow().contains("without glibc"));
    }

    @Test
    void linuxOnArmIsRefused() {
        assertTrue(new LocalPlatform("Linux", "aarch64", true).unsupported().isPresent());
    }

    @Test
    void thisMachineRunsThem() {
        assertEquals(Optional.empty(), LocalPlatform.current().unsupported(), "the project's machines are Linux x86-64 with glibc");
    }
}
