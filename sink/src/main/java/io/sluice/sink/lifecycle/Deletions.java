package io.sluice.sink.lifecycle;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * What must not be stored again, as the {@code deletions} table holds it: whole projects, and
 * single users of a project. A row is covered when its project is deleted, or its {@code user_id}
 * is a deleted user of its project; aggregate rows have no user and are covered only with their
 * project. Immutable: the follower replaces it whole.
 */
public final class Deletions {
    /** Nothing deleted. */
    public static final Deletions NONE = new Deletions(Set.of(), Map.of());
    private static final JsonFactory JSON = new JsonFactory();

    private final Set<String> projects;
    private final Map<String, Set<String>> usersByProject;

    private Deletions(Set<String> projects, Map<String, Set<String>> usersByProject) {
        this.projects = projects;
        this.usersByProject = usersByProject;
    }

    /** One deletion as the table holds it: a project's user, or the whole project when {@code userId} is empty. */
    public record Deletion(String project, String userId) {
        public boolean wholeProject() {
            return userId.isEmpty();
        }
    }

    public static Deletions of(List<Deletion> deletions) {
        Set<String> projects = new HashSet<>();
        Map<String, Set<String>> users = new HashMap<>();
        for (Deletion deletion : deletions) {
            if (deletion.wholeProject()) {
                projects.add(deletion.project());
            } else {
                users.computeIfAbsent(deletion.project(), project -> new HashSet<>()).add(deletion.userId());
            }
        }
        return new Deletions(Set.copyOf(projects), Map.copyOf(users));
    }

    public boolean isEmpty() {
        return projects.isEmpty() && usersByProject.isEmpty();
    }

    /** Whether a row of this project and user (null or empty: a row without one) must not be stored. */
    public boolean covers(String project, String userId) {
        if (projects.contains(project)) {
            return true;
        }
        Set<String> users = userId == null || userId.isEmpty() ? null : usersByProject.get(project);
        return users != null && users.contains(userId);
    }

    /**
     * Whether this row, as the processor writes it (a JSON object with {@code project} and, in
     * history rows, {@code user_id}), must not be stored. Nothing is read when nothing is deleted;
     * otherwise the object's top-level fields up to {@code project} (the processor writes it second),
     * and on to {@code user_id} only for a project with deleted users. A row that cannot be read is
     * not covered: ClickHouse refuses it on its own.
     */
    public boolean covers(byte[] row) {
        if (isEmpty()) {
            return false;
        }
        String project = null;
        String userId = null;
        try (JsonParser parser = JSON.createParser(row)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME && (project == null || userId == null)) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.VALUE_STRING && "project".equals(field)) {
                    project = parser.getText();
                    if (projects.contains(project) || !usersByProject.containsKey(project)) {
                        return projects.contains(project); // known without its user: the rest is not read
                    }
                } else if (value == JsonToken.VALUE_STRING && "user_id".equals(field)) {
                    userId = parser.getText();
                } else {
                    parser.skipChildren();
                }
            }
        } catch (IOException e) {
            return false;
        }
        return project != null && covers(project, userId);
    }
}
