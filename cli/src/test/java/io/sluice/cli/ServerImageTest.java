package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.processor.ProcessorConfig;

/**
 * deploy/Dockerfile, read and partly run (no Docker here): its entrypoint runs under /bin/sh with
 * a stand-in {@code java} that reports how it was called.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ServerImageTest {
    private static final Path DOCKERFILE = Path.of("..", "deploy", "Dockerfile");

    @TempDir
    Path temp;

    @Test
    void theEntrypointPassesJavaOptsWordByWordThenTheJarAndTheCommand() throws Exception {
        Called java = runEntrypoint("-Xmx1g -XX:MaxDirectMemorySize=256m  -Dsluice.test=yes", "projects", "list", "--json");
        assertEquals(List.of("-Xmx1g", "-XX:MaxDirectMemorySize=256m", "-Dsluice.test=yes", "-jar", "/opt/sluice/sluice.jar",
                "projects", "list", "--json"), java.args());
    }

    @Test
    void theEntrypointRunsTheImagesCommandWhenGivenNone() throws Exception {
        List<String> cmd = jsonArray("CMD");
        Called java = runEntrypoint("", cmd.toArray(String[]::new));
        assertEquals(List.of("-jar", "/opt/sluice/sluice.jar", "gateway"), java.args());
    }

    @Test
    void theEntrypointExecsJavaSoSignalsReachTheJvm() throws Exception {
        Called java = runEntrypoint("-Xmx1g", "processor");
        assertEquals(java.shellPid(), java.pid(), "java is the process the container runtime started (PID 1), not a child of sh");
    }

    @Test
    void theEntrypointLeavesWildcardsInJavaOptsAsWritten() throws Exception {
        Files.createFile(temp.resolve("-Xlog:gc-expanded")); // what -Xlog:gc* would match in the working directory
        Called java = runEntrypoint("-Xlog:gc*", "gateway");
        assertEquals("-Xlog:gc*", java.args().get(0));
    }

    @Test
    void theJarTheEntrypointRunsIsTheOneTheImageCopies() throws Exception {
        String dockerfile = Files.readString(DOCKERFILE);
        assertTrue(dockerfile.contains("COPY --from=build /src/cli/target/sluice.jar /opt/sluice/sluice.jar\n"), dockerfile);
        assertTrue(String.join(" ", jsonArray("ENTRYPOINT")).contains("-jar /opt/sluice/sluice.jar"));
    }

    @Test
    void theImageRunsAsTheUserTheManifestsName() throws Exception {
        String dockerfile = Files.readString(DOCKERFILE);
        long uid = KubernetesManifestsTest.IMAGE_UID;
        assertEquals(uid + ":" + uid, instruction(dockerfile, "USER"), "a numeric user, so runAsNonRoot can check it");
        assertTrue(dockerfile.contains("groupadd --system --gid " + uid + " sluice"), "the group fsGroup names");
        assertTrue(dockerfile.contains("useradd --system --uid " + uid + " --gid " + uid + " "), "the user runAsUser names");
    }

    @Test
    void theProcessorsStateDirectoryBelongsToTheImagesUserAndIsAVolume() throws Exception {
        String dockerfile = Files.readString(DOCKERFILE);
        String stateDir = envDefault(dockerfile, ProcessorConfig.STATE_DIR.name());
        String volume = instruction(dockerfile, "VOLUME");
        assertTrue(stateDir.startsWith(volume + "/"), stateDir + " is on the volume " + volume);
        long uid = KubernetesManifestsTest.IMAGE_UID;
        int made = dockerfile.indexOf("mkdir -p " + stateDir + " ");
        int owned = dockerfile.indexOf("chown -R " + uid + ":" + uid + " " + volume + "\n");
        assertTrue(made > 0 && owned > made, "the state directory is made, then its volume given to " + uid);
        // A RUN after VOLUME cannot change the volume's contents: the ownership must come first.
        assertTrue(owned < dockerfile.indexOf("\nVOLUME "), "chown before VOLUME");
    }

    @Test
    void theImageSetsADefaultJavaOpts() throws Exception {
        assertEquals("-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError", envDefault(Files.readString(DOCKERFILE), "JAVA_OPTS"));
    }

    /** The dependency layer is built from the poms alone; the reactor needs every module's pom to read the build. */
    @Test
    void theDependencyLayerCopiesEveryModulesPomBeforeTheSources() throws Exception {
        String dockerfile = Files.readString(DOCKERFILE);
        String root = Files.readString(Path.of("..", "pom.xml"));
        java.util.regex.Matcher module = java.util.regex.Pattern.compile("<module>([^<]+)</module>").matcher(root);
        int sources = dockerfile.indexOf("\nCOPY . .\n");
        assertTrue(sources > 0, dockerfile);
        int modules = 0;
        while (module.find()) {
            modules++;
            String copy = "\nCOPY " + module.group(1) + "/pom.xml " + module.group(1) + "/\n";
            assertTrue(dockerfile.indexOf(copy) > 0 && dockerfile.indexOf(copy) < sources, "missing before the sources: " + copy.strip());
        }
        assertTrue(modules >= 8, "modules read from the root pom: " + modules);
        assertTrue(dockerfile.substring(0, sources).contains("\nRUN mvn "), "a build of the poms alone before the sources");
    }

    @Test
    void theBuildContextLeavesOutGitBuildOutputAndLocalData() throws Exception {
        List<String> ignored = Files.readAllLines(Path.of("..", ".dockerignore"));
        assertTrue(ignored.containsAll(List.of(".git", "**/target/", ".sluice/")), ignored.toString());
    }

    private record Called(long shellPid, long pid, List<String> args) {
    }

    /** Runs the Dockerfile's ENTRYPOINT with these arguments (as CMD or `docker run IMAGE ARGS` give them). */
    private Called runEntrypoint(String javaOpts, String... args) throws Exception {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path report = temp.resolve("java-called");
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"$$\" > '" + report + "'\nfor arg in \"$@\"; do echo \"$arg\" >> '" + report + "'; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> command = new ArrayList<>(jsonArray("ENTRYPOINT"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put("JAVA_OPTS", javaOpts);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        List<String> lines = Files.readAllLines(report);
        return new Called(process.pid(), Long.parseLong(lines.get(0)), lines.subList(1, lines.size()));
    }

    /** The exec-form (JSON array) value of an instruction. */
    private static List<String> jsonArray(String instruction) throws IOException {
        String value = instruction(Files.readString(DOCKERFILE), instruction);
        return List.of(new ObjectMapper().readValue(value, String[].class));
    }

    /** The value of the one line starting with this instruction. */
    private static String instruction(String dockerfile, String instruction) {
        List<String> values = dockerfile.lines().filter(line -> line.startsWith(instruction + " "))
                .map(line -> line.substring(instruction.length() + 1).strip()).toList();
        assertEquals(1, values.size(), instruction + " lines: " + values);
        return values.get(0);
    }

    /** The value an ENV instruction gives this variable ({@code NAME=value} or {@code NAME="value"}). */
    private static String envDefault(String dockerfile, String name) {
        Matcher matcher = Pattern.compile("\\s" + Pattern.quote(name) + "=(\"[^\"]*\"|\\S+)").matcher(dockerfile);
        assertTrue(matcher.find(), "ENV " + name);
        return matcher.group(1).replace("\"", "");
    }
}
