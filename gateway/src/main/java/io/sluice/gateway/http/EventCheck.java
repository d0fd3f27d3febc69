package io.sluice.gateway.http;

import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.admit.RequestQuota;
import io.sluice.gateway.filter.EventFilters;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.gateway.validate.WrittenEvent;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;
import io.sluice.projects.InboundFilter;
import io.sluice.projects.Project;

/**
 * The ingest path's step for one event, the same for every door's: it takes its quota first (an
 * event over quota costs no parse), then reads its JSON, filters it ({@link EventFilters}: a
 * filtered event gives its quota back) and validates it ({@link EventValidator}, which scrubs
 * it); what became of it is an {@link Item} the path counts as it takes the request's items
 * ({@link Item.Accepted}, {@link Item.OverQuota}, {@link Item.Counted} or {@link Item.Refused}).
 * {@link IngestPath} runs it on each {@link Item.Event} it takes; the OTLP door runs it on each
 * span's events as the span is mapped ({@link #written}), so that an export holds each span's
 * JSON tree only while it is validated, and afterwards only the bytes to publish.
 */
final class EventCheck {
    private final EventValidator validator;
    private final RequestQuota quota;
    private final Project project;
    private final long receivedAt;

    /** For the events of a request admitted (its project known) and received at {@code receivedAt}. */
    EventCheck(GatewayServices services, Admitted admitted, long receivedAt) {
        this.validator = services.validator();
        this.quota = admitted.quota();
        this.project = admitted.project();
        this.receivedAt = receivedAt;
    }

    /** An event of any door, its JSON read from its payload once it took its quota. */
    Item check(Item.Event event) {
        return check(event.endpoint(), event.part(), event.refusedAlone(), () -> {
            byte[] json = event.payload().get();
            return new Read(json, validator.parse(json));
        });
    }

    /** An event written here (an OTLP span's), refused alone: validated from the tree written with it, not parsed again. */
    Item written(Endpoint endpoint, int part, WrittenEvent event) {
        return check(endpoint, part, true, () -> new Read(event.json(), validator.parse(event)));
    }

    private record Read(byte[] json, JsonNode tree) {
    }

    private Item check(Endpoint endpoint, int part, boolean refusedAlone, Supplier<Read> read) {
        Rejection over = quota.takeEvent(endpoint, part);
        if (over != null) {
            return new Item.OverQuota(over, part);
        }
        try {
            Read event = read.get();
            InboundFilter filter = EventFilters.filteredBy(endpoint, event.tree(), project.inboundFilters());
            if (filter != null) {
                quota.giveBack(endpoint); // a filtered event takes none of the quota
                QualifiedOutcome filtered = QualifiedOutcome.of(Outcome.FILTERED, filter.code());
                return new Item.Counted(counts -> counts.merge(filtered, 1L, Long::sum));
            }
            AcceptedEvent accepted = validator.validate(endpoint, event.json(), event.tree(), receivedAt, project.routeRules(),
                    project.dataScrubbing());
            return new Item.Accepted(endpoint, accepted, part);
        } catch (Rejection invalid) {
            if (!refusedAlone) {
                throw invalid;
            }
            return new Item.Refused(invalid, part);
        }
    }
}
