package io.sluice.cli;

import java.util.ArrayList;
import java.util.List;

import io.sluice.projects.Globs;
import io.sluice.projects.InboundFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./sluice projects set-filters}: which of a project's events the gateways filter before quota. */
@Command(name = "set-filters", description = {"Which of the project's events the gateways drop before they take its quota",
        "(answered as accepted, counted as filtered:<filter>, never stored): --on and --off switch",
        "health_check, localhost, browser_extensions, web_crawlers, legacy_browsers (all but localhost on",
        "by default); --error-messages and --releases set its glob patterns (\"\" for none)."})
final class SetFilters extends ProjectsCommand.Action {
    @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
    String token;
    @Option(names = "--on", paramLabel = "NAME,NAME", description = "Filters to switch on.")
    String on;
    @Option(names = "--off", paramLabel = "NAME,NAME", description = "Filters to switch off.")
    String off;
    @Option(names = "--error-messages", paramLabel = "GLOB,GLOB", description = "Errors whose message or exception "
            + "(type: value) one matches are dropped; the whole text, ignoring case; \"\" for none.")
    String errorMessages;
    @Option(names = "--releases", paramLabel = "GLOB,GLOB", description = "Events of a release one matches are dropped; \"\" for none.")
    String releases;

    SetFilters(ProjectsCommand.Registry registry) {
        super(registry);
    }

    @Override
    public Integer call() {
        String project = token("set-filters", token);
        if (on == null && off == null && errorMessages == null && releases == null) {
            throw new UsageException("set-filters needs TOKEN and --on, --off, --error-messages or --releases");
        }
        List<InboundFilter> turnOn = filters(on);
        List<InboundFilter> turnOff = filters(off);
        if (turnOn.stream().anyMatch(turnOff::contains)) {
            throw new UsageException("set-filters cannot switch a filter both --on and --off");
        }
        Globs messages = errorMessages == null ? null : globs("--error-messages", errorMessages);
        Globs releaseGlobs = releases == null ? null : globs("--releases", releases);
        use(projects -> projects.setFilters(project, turnOn, turnOff, messages, releaseGlobs));
        return 0;
    }

    /** {@code NAME,NAME}: switchable filters by name ({@code -} as {@code _}); none when absent. */
    private static List<InboundFilter> filters(String names) {
        List<InboundFilter> filters = new ArrayList<>();
        for (String name : names == null ? new String[0] : names.split(",")) {
            if (name.isBlank()) {
                continue;
            }
            InboundFilter filter;
            try {
                filter = InboundFilter.ofCode(name);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            if (!filter.switchable()) {
                throw new UsageException("'" + filter + "' is set with its patterns (--error-messages, --releases), not switched");
            }
            filters.add(filter);
        }
        return filters;
    }

    /** {@code GLOB,GLOB}: split at commas outside {@code {…}} (a glob's alternatives); "" is none. */
    private static Globs globs(String option, String text) {
        List<String> patterns = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            depth += c == '{' ? 1 : c == '}' && depth > 0 ? -1 : 0;
            if (c == ',' && (depth == 0 || i == text.length())) {
                patterns.add(text.substring(start, i));
                start = i + 1;
            }
        }
        try {
            return Globs.of(patterns);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }
}
