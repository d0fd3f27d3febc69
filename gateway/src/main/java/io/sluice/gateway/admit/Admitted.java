package io.sluice.gateway.admit;

import io.sluice.projects.Project;

/** A request taken on: where it goes, whose it is, and its share of the in-flight budget. */
public record Admitted(IngestRoute route, Project project, InFlightBudget.Reservation reservation) {
}
