package io.hotsched.itests;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The embedded API server's audit log judged from the server's side: each binding set against the
 * Lease as the server held it when the binding arrived, so a binding by a replica that no longer
 * held the Lease is found whatever the replicas believed.
 */
final class LeaseAudit {

    record Result(int bindings, Map<String, Integer> byUser, List<String> stale) {}

    private record LeaseState(String writer, String holder, Instant renewed, long durationSeconds) {}

    private LeaseAudit() {}

    static Result judge(List<String> lines) {
        LeaseState lease = null;
        int bindings = 0;
        Map<String, Integer> byUser = new java.util.TreeMap<>();
        List<String> stale = new ArrayList<>();
        // lines are in the order the server applied the writes (auditID)
        for (String line : lines) {
            JsonNode e = RawApi.JSON.readTree(line);
            int code = e.path("responseStatus").path("code").asInt();
            if (code != 200 && code != 201) {
                continue;
            }
            String user = e.path("user").path("username").asText();
            JsonNode ref = e.path("objectRef");
            if (ref.path("resource").asText().equals("leases")) {
                JsonNode spec = e.path("requestObject").path("spec");
                String renew = spec.path("renewTime").asText("");
                lease = new LeaseState(
                        user,
                        spec.path("holderIdentity").asText(""),
                        renew.isEmpty()
                                ? Instant.EPOCH
                                : java.time.OffsetDateTime.parse(renew).toInstant(),
                        spec.path("leaseDurationSeconds").asLong());
            } else if (ref.path("subresource").asText().equals("binding")) {
                bindings++;
                byUser.merge(user.substring(user.lastIndexOf(':') + 1), 1, Integer::sum);
                Instant at = Instant.parse(e.path("requestReceivedTimestamp").asText());
                boolean held = lease != null
                        && !lease.holder().isEmpty()
                        && lease.writer().equals(user)
                        && at.isBefore(lease.renewed().plusSeconds(lease.durationSeconds()));
                if (!held) {
                    stale.add(ref.path("name").asText() + " by " + user + " at " + at + " (Lease: " + lease + ")");
                }
            }
        }
        assertNotNull(lease, "no Lease write in the audit log");
        return new Result(bindings, byUser, stale);
    }
}
