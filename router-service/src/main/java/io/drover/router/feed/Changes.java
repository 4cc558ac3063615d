package io.drover.router.feed;

import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.messaging.EventPosition;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.Topics;
import io.drover.model.read.RouteRows;
import io.drover.router.table.Seen;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import tools.jackson.databind.JsonNode;

/**
 * What a record of the lifecycle topic or of the stop requests tells the router, as a {@link Seen} change (null when
 * it tells nothing: a task's event, a deployment's, a task's cancel, an unrouted LRP's instance). Kinds are told apart
 * by the record's header, and LRPs by its key, before anything is parsed. Also turns the read model's rows into the same values.
 */
final class Changes {

    private static final Set<String> DESIRED = Set.of(LifecycleEvent.DESIRED_LRP_CREATED,
            LifecycleEvent.DESIRED_LRP_CHANGED, LifecycleEvent.DESIRED_LRP_REMOVED);
    private static final Set<String> ACTUAL = Set.of(LifecycleEvent.ACTUAL_LRP_CREATED,
            LifecycleEvent.ACTUAL_LRP_CHANGED, LifecycleEvent.ACTUAL_LRP_REMOVED, LifecycleEvent.ACTUAL_LRP_CRASHED);

    private Changes() {
    }

    /**
     * The change {@code record} tells; an actual LRP's event is not parsed when {@code routed} says its LRP (the
     * record's key) has no route: the router holds no rows of such an LRP, and reads them from the read model when it
     * becomes routed. Most events of a cluster are of unrouted LRPs (workers, or every LRP of the benchmark), and
     * parsing them was the router's largest cost in the million run's P1.
     */
    static Seen of(ConsumerRecord<String, byte[]> record, Predicate<String> routed) {
        if (Topics.STOP_REQUESTS.equals(record.topic())) {
            String type = header(record, Topics.MESSAGE_TYPE_HEADER);
            if (type != null && !LrpStopRequested.TYPE.equals(type)) {
                return null;
            }
            JsonNode stop = Json.MAPPER.readTree(record.value());
            String guid = text(stop, "instance_guid");
            String processGuid = text(stop, "process_guid");
            return guid == null || processGuid == null ? null : new Seen.StopRequested(processGuid, guid);
        }
        String type = header(record, Topics.EVENT_TYPE_HEADER);
        if (type != null && !DESIRED.contains(type) && !ACTUAL.contains(type)) {
            return null;
        }
        if (type != null && ACTUAL.contains(type) && record.key() != null && !routed.test(record.key())) {
            return null;
        }
        JsonNode event = Json.MAPPER.readTree(record.value());
        type = text(event, "type");
        if (DESIRED.contains(type)) {
            return new Seen.DesiredChange(lrp(event.get("before")), lrp(event.get("after")));
        }
        if (ACTUAL.contains(type)) {
            return new Seen.ActualChange(row(event.get("before")), row(event.get("after")));
        }
        return null;
    }

    /**
     * The id of the transaction that wrote the event {@code record} carries, from its position header; 0 when it has
     * none (a stop request, or an event relayed before the header was).
     */
    static long txId(ConsumerRecord<String, byte[]> record) {
        String position = header(record, Topics.EVENT_POSITION_HEADER);
        return position == null ? 0 : EventPosition.parse(position).map(EventPosition::txId).orElse(0L);
    }

    static Seen.Lrp lrp(RouteRows.RoutedLrp row) {
        return new Seen.Lrp(row.processGuid(), row.routesJson(), row.epoch(), row.version());
    }

    static Seen.Row row(RouteRows.RouteInstance row) {
        return new Seen.Row(row.processGuid(), row.index(), row.evacuating(), row.state(), row.instanceGuid(),
                row.address(), row.portsJson() == null ? Map.of() : hostPorts(Json.tree(row.portsJson())), row.epoch(),
                row.version());
    }

    private static Seen.Lrp lrp(JsonNode snapshot) {
        if (snapshot == null || snapshot.isNull()) {
            return null;
        }
        JsonNode routes = snapshot.get("routes");
        String routesJson = routes == null || routes.isNull() ? null
                : routes.isString() ? routes.asString() : Json.write(routes);
        JsonNode tag = snapshot.get("modification_tag");
        return new Seen.Lrp(text(snapshot, "process_guid"), routesJson, UUID.fromString(text(tag, "epoch")),
                tag.get("index").asLong());
    }

    private static Seen.Row row(JsonNode snapshot) {
        if (snapshot == null || snapshot.isNull()) {
            return null;
        }
        JsonNode tag = snapshot.get("modification_tag");
        String state = text(snapshot, "state");
        JsonNode evacuating = snapshot.get("evacuating");
        return new Seen.Row(text(snapshot, "process_guid"), snapshot.get("index").asInt(),
                evacuating != null && evacuating.asBoolean(), state == null ? null : ActualLrpState.valueOf(state),
                text(snapshot, "instance_guid"), text(snapshot, "address"), hostPorts(snapshot.get("ports")),
                UUID.fromString(text(tag, "epoch")), tag.get("index").asLong());
    }

    private static Map<Integer, Integer> hostPorts(JsonNode ports) {
        Map<Integer, Integer> mapped = new HashMap<>();
        if (ports != null && ports.isArray()) {
            for (JsonNode port : ports) {
                JsonNode container = port.get("container_port");
                JsonNode host = port.get("host_port");
                if (container != null && host != null) {
                    mapped.putIfAbsent(container.asInt(), host.asInt());
                }
            }
        }
        return mapped;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
