package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.gateway.otlp.StackTraceText.Frame;

class StackTraceTextTest {
    @Test
    void javaFramesAreOldestFirstWithoutTheCauses() {
        String text = """
                java.lang.IllegalStateException: card declined
                \tat com.shop.Payments.charge(Payments.java:42)
                \tat com.shop.Checkout.run(Checkout.java:7)
                \tat java.base/java.lang.Thread.run(Thread.java:840)
                Caused by: java.io.IOException: reset
                \tat com.shop.Net.read(Net.java:3)
                """;

        assertEquals(List.of(
                new Frame("run", "java.base/java.lang.Thread", "Thread.java", 840),
                new Frame("run", "com.shop.Checkout", "Checkout.java", 7),
                new Frame("charge", "com.shop.Payments", "Payments.java", 42)), StackTraceText.frames(text));
    }

    @Test
    void javaScriptFramesAreOldestFirst() {
        String text = """
                TypeError: x is undefined
                    at handler (/app/routes.js:10:5)
                    at /app/server.js:99:1
                """;

        assertEquals(List.of(new Frame("", null, "/app/server.js", 99), new Frame("handler", null, "/app/routes.js", 10)),
                StackTraceText.frames(text));
    }

    @Test
    void pythonFramesStayInTheirOrderWhichIsOldestFirst() {
        String text = """
                Traceback (most recent call last):
                  File "/app/main.py", line 3, in <module>
                    run()
                  File "/app/shop.py", line 12, in run
                    raise ValueError("bad")
                ValueError: bad
                """;

        assertEquals(List.of(new Frame("<module>", null, "/app/main.py", 3), new Frame("run", null, "/app/shop.py", 12)),
                StackTraceText.frames(text));
    }

    @Test
    void onlyTheFramesNearestTheRaiseAreKept() {
        String text = "E\n" + "\tat a.B.c(B.java:1)\n".repeat(StackTraceText.MAX_FRAMES) + "\tat a.B.first(B.java:2)\n";

        List<Frame> frames = StackTraceText.frames(text);

        assertEquals(StackTraceText.MAX_FRAMES, frames.size());
        assertEquals("c", frames.get(0).function());
    }

    @Test
    void textOfAnotherLanguageHasNoFrames() {
        assertEquals(List.of(), StackTraceText.frames("goroutine 1 [running]:\nmain.main()\n\t/app/main.go:5 +0x1d"));
    }
}
