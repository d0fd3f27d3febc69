package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.config.Settings;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.Quota;

/** {@code ./sluice projects ...}: create, list, show, rotate and revoke keys, disable, enable, set quotas. */
final class ProjectsCommand {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ProjectAdmin admin;
    private final PrintStream out;

    ProjectsCommand(ProjectAdmin admin, PrintStream out) {
        this.admin = admin;
        this.out = out;
    }

    void run(Args args) {
        String action = args.positional(1);
        if (action == null) {
            throw new Args.UsageException("projects needs an action: create, list, show, rotate-key, revoke-key, "
                    + "disable, enable, set-quota");
        }
        switch (action) {
            case "create" -> create(args);
            case "list" -> list(args);
            case "show" -> print(admin.get(token(args)), args.flag("json"));
            case "rotate-key" -> rotateKey(args);
            case "revoke-key" -> {
                String keyId = args.positional(3);
                if (keyId == null) {
                    throw new Args.UsageException("revoke-key needs TOKEN KEY_ID");
                }
                Project project = admin.revokeKey(token(args), keyId);
                out.println("revoked key " + keyId + " of " + project.name() + " (" + project.token() + ")");
            }
            case "disable", "enable" -> {
                Project project = admin.setDisabled(token(args), action.equals("disable"));
                out.println(action + "d " + project.name() + " (" + project.token() + ")");
            }
            case "set-quota" -> {
                String endpoint = args.option("endpoint", null);
                if (endpoint != null && !endpoint.equals("transaction") && !endpoint.equals("project")) {
                    throw new Args.UsageException("--endpoint is transaction or project, not " + endpoint);
                }
                Project project = admin.setQuota(token(args), endpoint, quota(args));
                out.println("quota of " + project.name() + (endpoint == null ? "" : " (" + endpoint + ")") + ": "
                        + (endpoint == null ? project.quota() : project.endpointQuotas().get(endpoint)));
            }
            default -> throw new Args.UsageException("unknown projects action '" + action + "'");
        }
    }

    private void create(Args args) {
        String name = args.required("name");
        Quota quota = args.options().containsKey("rate") || args.options().containsKey("burst") ? quota(args) : null;
        ProjectAdmin.NewProject project = admin.create(name, quota);
        if (args.flag("json")) {
            out.println(JSON.createObjectNode().put("token", project.token()).put("key", project.key()).put("name", project.name()));
        } else {
            out.println("Created project " + project.name());
            out.println("  token: " + project.token());
            out.println("  key:   " + project.key() + "   (shown only now: keep it secret)");
        }
    }

    private void list(Args args) {
        List<Project> projects = admin.list();
        if (args.flag("json")) {
            ArrayNode all = JSON.createArrayNode();
            projects.forEach(project -> all.add(describe(project)));
            out.println(all);
            return;
        }
        out.printf("%-24s %-24s %-8s %-5s %s%n", "TOKEN", "NAME", "STATE", "KEYS", "QUOTA");
        for (Project project : projects) {
            out.printf("%-24s %-24s %-8s %-5d %s%n", project.token(), project.name(),
                    project.disabled() ? "disabled" : "active", project.keys().size(),
                    project.quota() == null ? "none" : project.quota());
        }
    }

    private void rotateKey(Args args) {
        Duration grace = Settings.parseDuration(args.option("grace", "24h"));
        ProjectAdmin.RotatedKey rotated = admin.rotateKey(token(args), grace);
        if (args.flag("json")) {
            out.println(JSON.createObjectNode().put("token", rotated.token()).put("key_id", rotated.keyId())
                    .put("key", rotated.key()).put("old_keys_expire_at", rotated.oldKeysExpireAt().toString()));
        } else {
            out.println("New key " + rotated.keyId() + ": " + rotated.key() + "   (shown only now: keep it secret)");
            out.println("The previous keys keep working until " + rotated.oldKeysExpireAt());
        }
    }

    private void print(Project project, boolean json) {
        if (json) {
            out.println(describe(project));
            return;
        }
        out.println(project.name() + " (" + project.token() + ")" + (project.disabled() ? "  DISABLED" : ""));
        out.println("  created: " + project.createdAt());
        out.println("  quota:   " + (project.quota() == null ? "none" : project.quota()));
        project.endpointQuotas().forEach((endpoint, quota) -> out.println("  quota " + endpoint + ": " + quota));
        for (ProjectKey key : project.keys()) {
            out.println("  key " + key.id() + (key.expiresAt() == null ? "" : "  expires " + key.expiresAt()));
        }
    }

    /** A project without secrets: key ids and expiry only. */
    private static ObjectNode describe(Project project) {
        ObjectNode node = JSON.createObjectNode().put("token", project.token()).put("name", project.name())
                .put("disabled", project.disabled()).put("created_at", project.createdAt().toString());
        if (project.quota() != null) {
            node.putObject("quota").put("rate", project.quota().ratePerSecond()).put("burst", project.quota().burst());
        }
        project.endpointQuotas().forEach((endpoint, quota) ->
                node.with("endpoint_quotas").putObject(endpoint).put("rate", quota.ratePerSecond()).put("burst", quota.burst()));
        ArrayNode keys = node.putArray("keys");
        project.keys().forEach(key -> {
            ObjectNode entry = keys.addObject().put("id", key.id());
            if (key.expiresAt() != null) {
                entry.put("expires_at", key.expiresAt().toString());
            }
        });
        return node;
    }

    private static String token(Args args) {
        String token = args.positional(2);
        if (token == null) {
            throw new Args.UsageException("projects " + args.positional(1) + " needs a TOKEN");
        }
        return token;
    }

    private static Quota quota(Args args) {
        try {
            long rate = Long.parseLong(args.required("rate"));
            long burst = Long.parseLong(args.option("burst", Long.toString(rate)));
            return new Quota(rate, burst);
        } catch (NumberFormatException e) {
            throw new Args.UsageException("--rate and --burst are whole numbers of events");
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }
}
