package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.projects.DataScrubbing;
import io.sluice.projects.DsnKey;
import io.sluice.projects.Globs;
import io.sluice.projects.InboundFilter;
import io.sluice.projects.InboundFilters;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.Quota;

/**
 * {@code ./sluice projects ...}: create, list, show, rotate and revoke keys and DSN keys, set a DSN
 * key's origins, disable, enable, set quotas, set data scrubbing.
 */
final class ProjectActions {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ORIGIN = Pattern.compile("(?i)https?://[^/\\s?#]+/?");

    private final ProjectAdmin admin;
    private final PrintStream out;
    private final PublicUrl publicUrl;

    ProjectActions(ProjectAdmin admin, PrintStream out, PublicUrl publicUrl) {
        this.admin = admin;
        this.out = out;
        this.publicUrl = publicUrl;
    }

    void revokeKey(String token, String keyId) {
        Project project = admin.revokeKey(token, keyId);
        out.println("revoked key " + keyId + " of " + project.name() + " (" + project.token() + ")");
    }

    void revokeDsnKey(String token, String keyId) {
        Project project = admin.revokeDsnKey(token, keyId);
        out.println("revoked DSN key " + keyId + " of " + project.name() + " (" + project.token() + ")");
    }

    void setDisabled(String token, boolean disabled) {
        Project project = admin.setDisabled(token, disabled);
        out.println((disabled ? "disabled " : "enabled ") + project.name() + " (" + project.token() + ")");
    }

    /** @param endpoint transaction, project, session, or null for the project's own quota */
    void setQuota(String token, String endpoint, Quota quota) {
        Project project = admin.setQuota(token, endpoint, quota);
        out.println("quota of " + project.name() + (endpoint == null ? "" : " (" + endpoint + ")") + ": "
                + (endpoint == null ? project.quota() : project.endpointQuotas().get(endpoint)));
    }

    /**
     * @param disabled        the opt-out, or null to keep it as it is
     * @param sensitiveFields the project's extra names, or null to keep them
     */
    void setScrubbing(String token, Boolean disabled, List<String> sensitiveFields) {
        DataScrubbing current = admin.get(token).dataScrubbing();
        Project project = admin.setDataScrubbing(token, new DataScrubbing(disabled == null ? current.disabled() : disabled,
                sensitiveFields == null ? current.sensitiveFields() : sensitiveFields));
        out.println("data scrubbing of " + project.name() + " (" + project.token() + "): " + scrubbing(project.dataScrubbing()));
    }

    private static String scrubbing(DataScrubbing scrubbing) {
        if (scrubbing.disabled()) {
            return "off (events are stored as sent, secrets included)";
        }
        return "on (defaults" + (scrubbing.sensitiveFields().isEmpty() ? "" : " + " + String.join(", ", scrubbing.sensitiveFields())) + ")";
    }

    /**
     * @param errorMessages the project's error-message patterns, or null to keep them
     * @param releases      its release patterns, or null to keep them
     */
    void setFilters(String token, List<InboundFilter> on, List<InboundFilter> off, Globs errorMessages, Globs releases) {
        InboundFilters current = admin.get(token).inboundFilters().switched(on, off);
        Project project = admin.setInboundFilters(token, new InboundFilters(current.on(),
                errorMessages == null ? current.errorMessages() : errorMessages, releases == null ? current.releases() : releases));
        out.println("inbound filters of " + project.name() + " (" + project.token() + "): " + filters(project.inboundFilters()));
    }

    private static String filters(InboundFilters filters) {
        String on = filters.on().isEmpty() ? "none" : String.join(", ", filters.on().stream().map(InboundFilter::code).toList());
        return on + (filters.errorMessages().isEmpty() ? "" : "; error messages " + filters.errorMessages())
                + (filters.releases().isEmpty() ? "" : "; releases " + filters.releases());
    }

    void show(String token, boolean json) {
        print(admin.get(token), json);
    }

    /** How {@code projects create} prints what it made. */
    enum CreatedAs { TEXT, JSON, EXPORT }

    /** @param quota null for none */
    void create(String name, Quota quota, CreatedAs format) {
        ProjectAdmin.NewProject project = admin.create(name, quota);
        String dsn = publicUrl.dsn(project.dsnKey().publicKey(), project.numericId());
        if (format == CreatedAs.EXPORT) {
            out.println(ShellVariables.exportLine(project.token(), project.key()));
        } else if (format == CreatedAs.JSON) {
            // The id is a JSON number: 48 bits, exact in every JSON reader (JavaScript's too).
            out.println(JSON.createObjectNode().put("token", project.token()).put("key", project.key()).put("name", project.name())
                    .put("id", project.numericId()).put("dsn", dsn));
        } else {
            out.println("Created project " + project.name());
            out.println("  token: " + project.token());
            out.println("  key:   " + project.key() + "   (shown only now: keep it secret)");
            out.println("  id:    " + project.numericId());
            out.println("  dsn:   " + dsn + "   (for Sentry SDKs; public)");
        }
    }

    void list(boolean json) {
        List<Project> projects = admin.list();
        if (json) {
            ArrayNode all = JSON.createArrayNode();
            projects.forEach(project -> all.add(describe(project)));
            out.println(all);
            return;
        }
        out.printf("%-24s %-24s %-8s %-5s %-32s %-15s %s%n", "TOKEN", "NAME", "STATE", "KEYS", "QUOTA", "ID", "DSN");
        Instant now = Instant.now();
        for (Project project : projects) {
            DsnKey newest = newestActiveDsnKey(project, now);
            out.printf("%-24s %-24s %-8s %-5d %-32s %-15d %s%n", project.token(), project.name(),
                    project.disabled() ? "disabled" : "active", project.keys().size(),
                    project.quota() == null ? "none" : project.quota(), project.numericId(),
                    newest == null ? "none" : dsn(project, newest));
        }
    }

    void rotateKey(String token, Duration grace, boolean json) {
        ProjectAdmin.RotatedKey rotated = admin.rotateKey(token, grace);
        if (json) {
            out.println(JSON.createObjectNode().put("token", rotated.token()).put("key_id", rotated.keyId())
                    .put("key", rotated.key()).put("old_keys_expire_at", rotated.oldKeysExpireAt().toString()));
        } else {
            out.println("New key " + rotated.keyId() + ": " + rotated.key() + "   (shown only now: keep it secret)");
            out.println("The previous keys keep working until " + rotated.oldKeysExpireAt());
        }
    }

    void rotateDsnKey(String token, Duration grace, boolean json) {
        ProjectAdmin.RotatedDsnKey rotated = admin.rotateDsnKey(token, grace);
        String dsn = dsn(rotated.project(), rotated.key());
        if (json) {
            out.println(JSON.createObjectNode().put("token", rotated.project().token()).put("key_id", rotated.key().id())
                    .put("public_key", rotated.key().publicKey()).put("dsn", dsn)
                    .put("old_keys_expire_at", rotated.oldKeysExpireAt().toString()));
        } else {
            out.println("New DSN key " + rotated.key().id() + ": " + dsn);
            out.println("The previous DSN keys keep working until " + rotated.oldKeysExpireAt());
        }
    }

    /** @param origins already checked by {@link #origins} */
    void setDsnOrigins(String token, String keyId, List<String> origins) {
        Project project = admin.setDsnOrigins(token, keyId, origins);
        out.println("origins of DSN key " + keyId + " of " + project.name() + " (" + project.token() + "): "
                + (origins.isEmpty() ? "any" : String.join(", ", origins)));
    }

    void addRouteRule(String token, String pattern) {
        Project project = admin.addRouteRule(token, pattern);
        out.println("route rules of " + project.name() + " (" + project.token() + "): " + String.join("  ", project.routeRules().patterns()));
    }

    void removeRouteRule(String token, String pattern) {
        Project project = admin.removeRouteRule(token, pattern);
        out.println("route rules of " + project.name() + " (" + project.token() + "): "
                + (project.routeRules().isEmpty() ? "none" : String.join("  ", project.routeRules().patterns())));
    }

    void listRouteRules(String token, boolean json) {
        Project project = admin.get(token);
        if (json) {
            ArrayNode patterns = JSON.createArrayNode();
            project.routeRules().patterns().forEach(patterns::add);
            out.println(patterns);
        } else {
            project.routeRules().patterns().forEach(out::println);
        }
    }

    private String dsn(Project project, DsnKey key) {
        return publicUrl.dsn(key.publicKey(), project.numericId());
    }

    /** The DSN key to hand out: the newest that works now; null when none does. */
    private static DsnKey newestActiveDsnKey(Project project, Instant now) {
        return project.dsnKeys().stream().filter(key -> key.activeAt(now))
                .max(Comparator.comparing(DsnKey::createdAt, Comparator.nullsFirst(Comparator.naturalOrder()))).orElse(null);
    }

    private void print(Project project, boolean json) {
        if (json) {
            out.println(describe(project));
            return;
        }
        out.println(project.name() + " (" + project.token() + ")" + (project.disabled() ? "  DISABLED" : ""));
        out.println("  id:      " + project.numericId());
        out.println("  created: " + project.createdAt());
        out.println("  quota:   " + (project.quota() == null ? "none" : project.quota()));
        project.endpointQuotas().forEach((endpoint, quota) -> out.println("  quota " + endpoint + ": " + quota));
        project.routeRules().patterns().forEach(pattern -> out.println("  route rule: " + pattern));
        out.println("  scrubbing: " + scrubbing(project.dataScrubbing()));
        out.println("  filters:   " + filters(project.inboundFilters()));
        for (ProjectKey key : project.keys()) {
            out.println("  key " + key.id() + (key.expiresAt() == null ? "" : "  expires " + key.expiresAt()));
        }
        for (DsnKey key : project.dsnKeys()) {
            out.println("  dsn key " + key.id() + ": " + dsn(project, key)
                    + (key.expiresAt() == null ? "" : "  expires " + key.expiresAt())
                    + (key.allowedOrigins().isEmpty() ? "" : "  origins " + String.join(", ", key.allowedOrigins())));
        }
    }

    /** A project without secrets: private keys' ids and expiry only; DSN keys (public) in full. */
    private ObjectNode describe(Project project) {
        ObjectNode node = JSON.createObjectNode().put("token", project.token()).put("id", project.numericId())
                .put("name", project.name())
                .put("disabled", project.disabled()).put("created_at", project.createdAt().toString());
        if (project.quota() != null) {
            node.putObject("quota").put("rate", project.quota().ratePerSecond()).put("burst", project.quota().burst());
        }
        project.endpointQuotas().forEach((endpoint, quota) ->
                node.with("endpoint_quotas").putObject(endpoint).put("rate", quota.ratePerSecond()).put("burst", quota.burst()));
        ArrayNode routeRules = node.putArray("route_rules");
        project.routeRules().patterns().forEach(routeRules::add);
        ObjectNode scrubbing = node.putObject("data_scrubbing").put("disabled", project.dataScrubbing().disabled());
        ArrayNode sensitiveFields = scrubbing.putArray("sensitive_fields");
        project.dataScrubbing().sensitiveFields().forEach(sensitiveFields::add);
        ObjectNode filters = node.putObject("inbound_filters");
        ArrayNode on = filters.putArray("on");
        project.inboundFilters().on().forEach(filter -> on.add(filter.code()));
        project.inboundFilters().errorMessages().patterns().forEach(filters.putArray("error_messages")::add);
        project.inboundFilters().releases().patterns().forEach(filters.putArray("releases")::add);
        ArrayNode keys = node.putArray("keys");
        project.keys().forEach(key -> {
            ObjectNode entry = keys.addObject().put("id", key.id());
            if (key.expiresAt() != null) {
                entry.put("expires_at", key.expiresAt().toString());
            }
        });
        DsnKey newest = newestActiveDsnKey(project, Instant.now());
        if (newest != null) {
            node.put("dsn", dsn(project, newest));
        }
        ArrayNode dsnKeys = node.putArray("dsn_keys");
        project.dsnKeys().forEach(key -> {
            ObjectNode entry = dsnKeys.addObject().put("id", key.id()).put("public_key", key.publicKey())
                    .put("dsn", dsn(project, key));
            if (key.createdAt() != null) {
                entry.put("created_at", key.createdAt().toString());
            }
            if (key.expiresAt() != null) {
                entry.put("expires_at", key.expiresAt().toString());
            }
            ArrayNode origins = entry.putArray("allowed_origins");
            key.allowedOrigins().forEach(origins::add);
        });
        return node;
    }

    /** {@code --origins a,b}: each scheme://host[:port], a trailing slash dropped; "" is any origin. */
    static List<String> origins(String text) {
        List<String> origins = new ArrayList<>();
        for (String origin : text.split(",")) {
            String trimmed = origin.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (!ORIGIN.matcher(trimmed).matches()) {
                throw new UsageException("an origin is scheme://host[:port], such as https://shop.example, not " + trimmed);
            }
            origins.add(trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
        }
        return origins;
    }

    /** {@code --sensitive-fields a,b}: field names, blanks dropped; "" is none. */
    static List<String> sensitiveFields(String text) {
        List<String> names = new ArrayList<>();
        for (String name : text.split(",")) {
            if (!name.isBlank()) {
                names.add(name.strip());
            }
        }
        if (names.size() > DataScrubbing.MAX_SENSITIVE_FIELDS) {
            throw new UsageException("at most " + DataScrubbing.MAX_SENSITIVE_FIELDS + " sensitive field names, got " + names.size());
        }
        return names;
    }

    /** {@code --rate N [--burst M]}: the burst defaults to the rate. */
    static Quota quota(String rate, String burst) {
        try {
            long perSecond = Long.parseLong(ServerCommands.required("rate", rate));
            return new Quota(perSecond, burst == null ? perSecond : Long.parseLong(burst));
        } catch (NumberFormatException e) {
            throw new UsageException("--rate and --burst are whole numbers of events");
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
