package io.sluice.sink.lifecycle;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What must not be stored again, as the {@code deletions} table holds it: whole projects, and
 * single users of a project. A row is covered when its project is deleted, or its {@code user_id}
 * is a deleted user of its project; aggregate rows have no user and are covered only with their
 * project. Immutable: the follower replaces it whole.
 */
public final class Deletions {
    /** Nothing deleted. */
    public static final Deletions NONE = new Deletions(Set.of(), Map.of());

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

    /** How many whole projects were deleted. */
    public int projectCount() {
        return projects.size();
    }

    /** How many users were deleted, over every project. */
    public int userCount() {
        return usersByProject.values().stream().mapToInt(Set::size).sum();
    }

    /** Whether some user of this project was deleted (its rows must be read on to their user). */
    public boolean hasDeletedUsers(String project) {
        return usersByProject.containsKey(project);
    }
}
