package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./sluice projects ACTION}: the command line of {@link ProjectActions}. Arguments are checked
 * here, before the registry is touched, so a mistyped call changes nothing.
 */
@Command(name = "projects", description = {"Create and manage projects: keys, DSN keys, quotas.",
        "Every action takes --bootstrap-server HOST:PORT (default $SLUICE_KAFKA_BOOTSTRAP_SERVERS),",
        "and fails when Kafka does not answer within $SLUICE_CLI_KAFKA_TIMEOUT."})
final class ProjectsCommand extends CliCommand {
    static final String ACTIONS = "create, list, show, rotate-key, revoke-key, rotate-dsn-key, revoke-dsn-key, "
            + "set-dsn-origins, disable, enable, set-quota, set-scrubbing, set-filters, routes, delete-user, delete, set-retention";

    /** {@code projects} with its actions. */
    static CommandLine create(Settings settings, PrintStream out) {
        Registry registry = new Registry(settings, out);
        CommandLine projects = new CommandLine(new ProjectsCommand());
        for (Object action : List.of(new Create(registry), new ListAll(registry), new Show(registry), new RotateKey(registry),
                new RevokeKey(registry), new RotateDsnKey(registry), new RevokeDsnKey(registry), new SetDsnOrigins(registry),
                new Disable(registry, true), new Disable(registry, false), new SetQuota(registry), new SetScrubbing(registry),
                new SetFilters(registry))) {
            CommandLine command = new CommandLine(action);
            // disable and enable share a class: the name is the one given here
            projects.addSubcommand(action instanceof Disable disable ? disable.name() : command.getCommandName(), command);
        }
        CommandLine routes = new CommandLine(new RouteRulesCommand());
        for (Object action : List.of(new AddRouteRule(registry), new ListRouteRules(registry), new RemoveRouteRule(registry))) {
            routes.addSubcommand(new CommandLine(action));
        }
        projects.addSubcommand("routes", routes);
        for (Object action : ProjectDataCommands.actions(settings, out)) {
            projects.addSubcommand(new CommandLine(action));
        }
        return projects;
    }

    @Override
    public Integer call() {
        throw new UsageException("projects needs an action: " + ACTIONS);
    }

    /** Opens the registry for one action. */
    record Registry(Settings settings, PrintStream out) {
        void use(String bootstrapServers, Consumer<ProjectActions> action) {
            PublicUrl publicUrl = PublicUrl.from(settings); // a wrong SLUICE_PUBLIC_URL fails before any change
            Duration timeout = CliKafkaTimeout.from(settings);
            KafkaSettings kafka = CommandLineSettings.kafka(settings, bootstrapServers);
            TopicSetup.ensureTopics(kafka, timeout);
            try (ProjectAdmin admin = new ProjectAdmin(kafka, timeout)) {
                action.accept(new ProjectActions(admin, out, publicUrl));
            }
        }
    }

    /** What every action shares: the registry and {@code --bootstrap-server}. */
    abstract static class Action extends CliCommand {
        final Registry registry;
        @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT", description = "Kafka (default $SLUICE_KAFKA_BOOTSTRAP_SERVERS).")
        String bootstrapServers;

        Action(Registry registry) {
            this.registry = registry;
        }

        final void use(Consumer<ProjectActions> action) {
            registry.use(bootstrapServers, action);
        }

        static String token(String action, String token) {
            if (token == null) {
                throw new UsageException("projects " + action + " needs a TOKEN");
            }
            return token;
        }

        static Duration grace(String text) {
            return Settings.parseDuration(text);
        }
    }

    @Command(name = "create", description = {"Create a project; prints its token and private key (shown once),",
            "its numeric id and its DSN for Sentry SDKs (from SLUICE_PUBLIC_URL)."})
    private static final class Create extends Action {
        @Option(names = "--name", required = true, paramLabel = "NAME", description = "The project's name.")
        String name;
        @Option(names = "--rate", paramLabel = "N", description = "Quota: events per second (default: no quota).")
        String rate;
        @Option(names = "--burst", paramLabel = "M", description = "Quota: events at once (default: the rate).")
        String burst;
        @Option(names = "--json", description = "Print one JSON object: token, key, name, id, dsn.")
        boolean json;
        @Option(names = "--export", description = "Print one line for the shell: export TOKEN=... KEY=... (eval \"$(...)\").")
        boolean export;

        Create(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String projectName = ServerCommands.required("name", name);
            if (json && export) {
                throw new UsageException("projects create takes --json or --export, not both");
            }
            Quota quota = rate != null || burst != null ? ProjectActions.quota(rate, burst) : null;
            ProjectActions.CreatedAs format = json ? ProjectActions.CreatedAs.JSON
                    : export ? ProjectActions.CreatedAs.EXPORT : ProjectActions.CreatedAs.TEXT;
            use(projects -> projects.create(projectName, quota, format));
            return 0;
        }
    }

    @Command(name = "list", description = "Every project (no secrets): id, state, quota, DSN.")
    private static final class ListAll extends Action {
        @Option(names = "--json", description = "Print a JSON array.")
        boolean json;

        ListAll(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            use(projects -> projects.list(json));
            return 0;
        }
    }

    @Command(name = "show", description = "One project: id, keys (ids, expiry), DSN keys, quota, state.")
    private static final class Show extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Option(names = "--json", description = "Print a JSON object.")
        boolean json;

        Show(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("show", token);
            use(projects -> projects.show(project, json));
            return 0;
        }
    }

    @Command(name = "rotate-key", description = "A new key; the old ones keep working for the grace period.")
    private static final class RotateKey extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "24h", description = "How long the old keys keep working (default ${DEFAULT-VALUE}).")
        String grace;
        @Option(names = "--json", description = "Print one JSON object: token, key_id, key, old_keys_expire_at.")
        boolean json;

        RotateKey(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("rotate-key", token);
            Duration duration = grace(grace);
            use(projects -> projects.rotateKey(project, duration, json));
            return 0;
        }
    }

    @Command(name = "revoke-key", description = "Remove a key at once.")
    private static final class RevokeKey extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Parameters(index = "1", arity = "1", paramLabel = "KEY_ID", description = "The key's id (projects show lists them).")
        String keyId;

        RevokeKey(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("revoke-key", token);
            if (keyId == null) {
                throw new UsageException("revoke-key needs TOKEN KEY_ID");
            }
            use(projects -> projects.revokeKey(project, keyId));
            return 0;
        }
    }

    @Command(name = "rotate-dsn-key", description = "A new DSN key; the old DSNs keep working for the grace period.")
    private static final class RotateDsnKey extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "24h", description = "How long the old DSN keys keep working (default ${DEFAULT-VALUE}).")
        String grace;
        @Option(names = "--json", description = "Print one JSON object: token, key_id, public_key, dsn, old_keys_expire_at.")
        boolean json;

        RotateDsnKey(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("rotate-dsn-key", token);
            Duration duration = grace(grace);
            use(projects -> projects.rotateDsnKey(project, duration, json));
            return 0;
        }
    }

    @Command(name = "revoke-dsn-key", description = "Remove a DSN key at once.")
    private static final class RevokeDsnKey extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Parameters(index = "1", arity = "1", paramLabel = "KEY_ID", description = "The DSN key's id (projects show lists them).")
        String keyId;

        RevokeDsnKey(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("revoke-dsn-key", token);
            if (keyId == null) {
                throw new UsageException("revoke-dsn-key needs TOKEN KEY_ID");
            }
            use(projects -> projects.revokeDsnKey(project, keyId));
            return 0;
        }
    }

    @Command(name = "set-dsn-origins", description = "Browser origins allowed to use that DSN key.")
    private static final class SetDsnOrigins extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Parameters(index = "1", arity = "1", paramLabel = "KEY_ID", description = "The DSN key's id.")
        String keyId;
        @Option(names = "--origins", required = true, paramLabel = "ORIGIN,ORIGIN", description = "Such as https://a.example,https://b.example; \"\" for any origin.")
        String origins;

        SetDsnOrigins(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("set-dsn-origins", token);
            if (keyId == null || origins == null) {
                throw new UsageException("set-dsn-origins needs TOKEN KEY_ID --origins ORIGIN,ORIGIN (\"\" for any origin)");
            }
            List<String> allowed = ProjectActions.origins(origins);
            use(projects -> projects.setDsnOrigins(project, keyId, allowed));
            return 0;
        }
    }

    /** {@code disable TOKEN} and {@code enable TOKEN}. */
    @Command(description = "Refuse (disable) or accept again (enable) the project's events.")
    private static final class Disable extends Action {
        private final boolean disabled;
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;

        Disable(Registry registry, boolean disabled) {
            super(registry);
            this.disabled = disabled;
        }

        String name() {
            return disabled ? "disable" : "enable";
        }

        @Override
        public Integer call() {
            String project = token(name(), token);
            use(projects -> projects.setDisabled(project, disabled));
            return 0;
        }
    }

    @Command(name = "set-quota", description = "Set the project's quota, or one endpoint's.")
    private static final class SetQuota extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Option(names = "--rate", required = true, paramLabel = "N", description = "Events per second.")
        String rate;
        @Option(names = "--burst", paramLabel = "M", description = "Events at once (default: the rate).")
        String burst;
        @Option(names = "--endpoint", paramLabel = "transaction|project|session", description = "Only this endpoint's quota (session: session and sessions items).")
        String endpoint;

        SetQuota(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("set-quota", token);
            if (endpoint != null && Endpoint.ofQuotaName(endpoint) == null) {
                List<String> names = Endpoint.quotaNames();
                throw new UsageException("--endpoint is " + String.join(", ", names.subList(0, names.size() - 1)) + " or "
                        + names.get(names.size() - 1) + ", not " + endpoint);
            }
            Quota quota = ProjectActions.quota(rate, burst);
            use(projects -> projects.setQuota(project, endpoint, quota));
            return 0;
        }
    }

    /** {@code projects routes ACTION}: a project's route patterns (see {@link io.sluice.events.RouteRules}). */
    @Command(name = "routes", description = {"A project's route patterns, tried in order before the built-in normalization:",
            "* or {name} matches one path segment, ** (last only) the rest; the route is the pattern as written."})
    private static final class RouteRulesCommand extends CliCommand {
        @Override
        public Integer call() {
            throw new UsageException("projects routes needs an action: add, list, remove");
        }
    }

    /** What the route actions share: {@code --token}. */
    private abstract static class RouteRuleAction extends Action {
        @Option(names = "--token", required = true, paramLabel = "TOKEN", description = "The project's token.")
        String token;

        RouteRuleAction(Registry registry) {
            super(registry);
        }

        /** {@code --pattern}, checked before the registry is touched. */
        static String pattern(String action, String pattern) {
            if (pattern == null) {
                throw new UsageException("projects routes " + action + " needs --pattern, such as --pattern '/shops/*/orders/*'");
            }
            try {
                io.sluice.events.RouteRules.check(pattern);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return pattern;
        }
    }

    @Command(name = "add", description = "Add a route pattern, tried after the project's others.")
    private static final class AddRouteRule extends RouteRuleAction {
        @Option(names = "--pattern", required = true, paramLabel = "PATTERN", description = "Such as /shops/*/orders/* or /shops/{shop}/**.")
        String pattern;

        AddRouteRule(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("routes add", token);
            String checked = pattern("add", pattern);
            use(projects -> projects.addRouteRule(project, checked));
            return 0;
        }
    }

    @Command(name = "list", description = "The project's route patterns, in the order they are tried.")
    private static final class ListRouteRules extends RouteRuleAction {
        @Option(names = "--json", description = "Print a JSON array of the patterns.")
        boolean json;

        ListRouteRules(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("routes list", token);
            use(projects -> projects.listRouteRules(project, json));
            return 0;
        }
    }

    @Command(name = "remove", description = "Remove a route pattern.")
    private static final class RemoveRouteRule extends RouteRuleAction {
        @Option(names = "--pattern", required = true, paramLabel = "PATTERN", description = "The pattern as listed.")
        String pattern;

        RemoveRouteRule(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("routes remove", token);
            if (pattern == null) {
                throw new UsageException("projects routes remove needs --pattern (projects routes list shows them)");
            }
            use(projects -> projects.removeRouteRule(project, pattern));
            return 0;
        }
    }

    @Command(name = "set-scrubbing", description = {"What the gateways scrub from the project's events before Kafka:",
            "--off stores them as sent (secrets included), --on scrubs (the default);",
            "--sensitive-fields adds field names to the defaults (\"\" for none)."})
    private static final class SetScrubbing extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Option(names = "--off", description = "Opt out: store events as sent, secrets included.")
        boolean off;
        @Option(names = "--on", description = "Scrub (the default).")
        boolean on;
        @Option(names = "--sensitive-fields", paramLabel = "NAME,NAME", description = "Field names scrubbed on top of the defaults, "
                + "compared as they are (ignoring case, - and _, anywhere in a name); \"\" for none.")
        String sensitiveFields;

        SetScrubbing(Registry registry) {
            super(registry);
        }

        @Override
        public Integer call() {
            String project = token("set-scrubbing", token);
            if (on && off) {
                throw new UsageException("set-scrubbing takes --on or --off, not both");
            }
            if (!on && !off && sensitiveFields == null) {
                throw new UsageException("set-scrubbing needs TOKEN and --on, --off or --sensitive-fields NAME,NAME");
            }
            Boolean disabled = on || off ? off : null;
            List<String> names = sensitiveFields == null ? null : ProjectActions.sensitiveFields(sensitiveFields);
            use(projects -> projects.setScrubbing(project, disabled, names));
            return 0;
        }
    }
}
