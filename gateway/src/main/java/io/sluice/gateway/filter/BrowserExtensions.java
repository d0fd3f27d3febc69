package io.sluice.gateway.filter;

import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.events.SentryFields;
import io.sluice.projects.Globs;

/**
 * An error raised by a browser extension or an injected script (Relay's list): the first
 * exception's value is a message known to come from one, or the last frame of its stack trace
 * with a path (not {@code <anonymous>} nor {@code [native code]}) is an extension's
 * ({@code chrome-extension://}, {@code moz-extension://}, {@code safari-extension://}, …) or a
 * known injected script's. Each is read in its first {@link Globs#MAX_TEXT} characters only, as the
 * patterns of the other filters are: the sender chooses how long it is.
 */
final class BrowserExtensions {
    private static final Pattern VALUES = Pattern.compile(String.join("|",
            "top\\.GLOBALS",
            "originalCreateNotification",
            "canvas.contentDocument",
            "MyApp_RemoveAllHighlights",
            "http://tt\\.epicplay\\.com",
            "Can't\\sfind\\svariable:\\sZiteReader",
            "jigsaw\\sis\\snot\\sdefined",
            "ComboSearch\\sis\\snot\\sdefined",
            "http://loading\\.retry\\.widdit\\.com/",
            "atomicFindClose",
            "fb_xd_fragment",
            "bmi_SafeAddOnload",
            "EBCallBackMessageReceived",
            "_gCrWeb",
            "conduitPage",
            "null\\sis\\snot\\san\\sobject\\s\\(evaluating\\s'elt.parentNode'\\)",
            "plugin\\.setSuspendState\\sis\\snot\\sa\\sfunction",
            "Extension\\scontext\\sinvalidated",
            "webkit-masked-url:",
            "can't\\saccess\\sdead\\sobject"), Pattern.CASE_INSENSITIVE);
    private static final Pattern SOURCES = Pattern.compile(String.join("|",
            "graph\\.facebook\\.com",
            "connect\\.facebook\\.net",
            "eatdifferent\\.com\\.woopra-ns\\.com",
            "static\\.woopra\\.com/js/woopra\\.js",
            "^chrome(-extension)?://",
            "^moz-extension://",
            "^safari(-web)?-extension://",
            "webkit-masked-url",
            "127\\.0\\.0\\.1:4001/isrunning",
            "webappstoolbarba\\.texthelp\\.com/",
            "metrics\\.itunes\\.apple\\.com\\.edgesuite\\.net/",
            "kaspersky-labs\\.com"), Pattern.CASE_INSENSITIVE);

    private BrowserExtensions() {
    }

    static boolean matches(JsonNode error) {
        JsonNode exceptions = SentryFields.exceptions(error);
        if (exceptions == null) {
            return false;
        }
        JsonNode first = exceptions.get(0);
        String value = EventFilters.cut(SentryFields.text(first, "/value"), Globs.MAX_TEXT);
        if (!value.isEmpty() && VALUES.matcher(value).find()) {
            return true;
        }
        String source = lastSource(first);
        return source != null && SOURCES.matcher(EventFilters.cut(source, Globs.MAX_TEXT)).find();
    }

    /** The path of the last frame that has one other than {@code <anonymous>} or {@code [native code]}, or null. */
    private static String lastSource(JsonNode exception) {
        JsonNode frames = SentryFields.at(exception, "/stacktrace/frames");
        for (int i = frames.size() - 1; i >= 0; i--) {
            String path = SentryFields.text(frames.get(i), "/abs_path");
            if (path.isEmpty()) {
                path = SentryFields.text(frames.get(i), "/filename");
            }
            if (!path.isEmpty() && !path.equals("<anonymous>") && !path.equals("[native code]")) {
                return path;
            }
        }
        return null;
    }
}
