package io.sluice.stack;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.cli.ShellVariables;
import io.sluice.projects.ProjectAdmin;

/**
 * The local stack's demo project, created once so a newcomer can send data at once. Its key is
 * kept in {@code .sluice/demo-project.json} (readable only by the user): fine for a local
 * playground, never for a real project, whose key is shown once and stored nowhere.
 */
public record DemoProject(String token, String key) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static DemoProject ensure(Path home, String bootstrapServers, String registryTopic) {
        Path file = home.resolve("demo-project.json");
        try (ProjectAdmin admin = new ProjectAdmin(bootstrapServers, registryTopic)) {
            if (Files.exists(file)) {
                JsonNode saved = JSON.readTree(file.toFile());
                DemoProject demo = new DemoProject(saved.get("token").asText(), saved.get("key").asText());
                try {
                    admin.get(demo.token());
                    return demo;
                } catch (ProjectAdmin.UnknownProjectException goneWithKafkasData) {
                    // created anew below
                }
            }
            ProjectAdmin.NewProject created = admin.create("demo");
            Files.writeString(file, JSON.createObjectNode().put("token", created.token()).put("key", created.key())
                    .put("name", created.name()).toString());
            file.toFile().setReadable(false, false);
            file.toFile().setReadable(true, true);
            return new DemoProject(created.token(), created.key());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the demo project in " + file, e);
        }
    }

    /**
     * What to paste next: the shell variables the README's commands use, both endpoints, plain and
     * gzip, then the checks.
     */
    public void printTryIt(PrintStream out, int gatewayPort) {
        String base = "http://127.0.0.1:" + gatewayPort + "/api/v1/" + token;
        String auth = "-H 'Authorization: Bearer " + key + "' -H 'Content-Type: application/json'";
        out.println("Demo project: token " + token + "  key " + key + "  (local only; real keys are shown once)");
        out.println("For the commands in the README, in the terminal you send from:");
        out.println("  " + ShellVariables.exportLine(token, key));
        out.println();
        out.println("Send a transaction:");
        out.println("  curl -s " + base + "/transaction " + auth
                + " -d '{\"transaction\": \"GET /users/42\", \"environment\": \"production\", \"tags\": {\"http.status_code\": 200}}'");
        out.println("The same, gzip-compressed:");
        out.println("  echo '{\"transaction\": \"POST /orders\", \"tags\": {\"http.status_code\": 503}}' | gzip | curl -s "
                + base + "/transaction " + auth + " -H 'Content-Encoding: gzip' --data-binary @-");
        out.println("Send an error report:");
        out.println("  curl -s " + base + "/project " + auth
                + " -d '{\"exception\": {\"values\": [{\"type\": \"ValueError\", \"value\": \"bad input\"}]}}'");
        out.println("See it:");
        out.println("  ./sluice stats --project " + token);
        out.println("  ./sluice send-test-event --token " + token + " --key " + key);
    }
}
