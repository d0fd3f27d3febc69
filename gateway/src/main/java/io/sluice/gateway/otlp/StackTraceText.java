package io.sluice.gateway.otlp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The frames of an {@code exception.stacktrace}, which OpenTelemetry sends as the language's own
 * text: Java's ({@code at pkg.Class.method(File.java:42)}), JavaScript's (V8's
 * {@code at fn (file.js:10:5)}) and Python's ({@code File "x.py", line 12, in fn}), in Sentry's
 * order, the oldest call first and the frame that raised last. Only the reported exception's
 * frames (a Java trace's {@code Caused by:} sections are left out), at most {@link #MAX_FRAMES}
 * of them nearest the raise, read from the first {@link #MAX_CHARS} characters; lines of other
 * languages give no frames (the text is kept with the error as it was sent).
 */
final class StackTraceText {
    static final int MAX_FRAMES = 64;
    static final int MAX_CHARS = 64 * 1024;
    private static final int MAX_LINE = 1024;
    private static final Pattern JAVA = Pattern.compile("\\s*at\\s+([^\\s(]+)\\.([^\\s.(]+)\\(([^:)]*)(?::(\\d{1,9}))?\\)\\s*");
    private static final Pattern V8 = Pattern.compile("\\s*at\\s+(?:([^()]+?)\\s+\\()?([^()\\s]+?):(\\d{1,9}):\\d{1,9}\\)?\\s*");
    private static final Pattern PYTHON = Pattern.compile("\\s*File \"([^\"]+)\", line (\\d{1,9}), in (.+?)\\s*");

    /** A frame as a Sentry event carries it. */
    record Frame(String function, String module, String filename, Integer lineno) {
    }

    private StackTraceText() {
    }

    static List<Frame> frames(String text) {
        List<Frame> frames = new ArrayList<>();
        boolean innermostFirst = true;
        int end = Math.min(text.length(), MAX_CHARS);
        int start = 0;
        while (start < end) {
            int newline = text.indexOf('\n', start);
            int lineEnd = newline < 0 || newline > end ? end : newline;
            if (lineEnd - start <= MAX_LINE) {
                String line = text.substring(start, lineEnd);
                if (line.startsWith("Caused by:")) {
                    break;
                }
                Matcher m;
                if ((m = JAVA.matcher(line)).matches()) {
                    frames.add(new Frame(m.group(2), m.group(1), m.group(3), lineNumber(m.group(4))));
                } else if ((m = V8.matcher(line)).matches()) {
                    frames.add(new Frame(m.group(1) == null ? "" : m.group(1), null, m.group(2), lineNumber(m.group(3))));
                } else if ((m = PYTHON.matcher(line)).matches()) {
                    innermostFirst = false;
                    frames.add(new Frame(m.group(3), null, m.group(1), lineNumber(m.group(2))));
                }
            }
            start = lineEnd + 1;
        }
        if (innermostFirst) {
            Collections.reverse(frames);
        }
        return frames.size() <= MAX_FRAMES ? frames : List.copyOf(frames.subList(frames.size() - MAX_FRAMES, frames.size()));
    }

    private static Integer lineNumber(String digits) {
        return digits == null ? null : Integer.valueOf(digits);
    }
}
