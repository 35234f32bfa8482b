package io.hotsched.kube.delivery;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes this replica's entry of a SchedulerPlugin's {@code status.replicas}, and the summary
 * fields the printer columns show, computed from all entries. Several replicas write the same
 * status: each write is a read and a PUT of the status subresource at the version read, retried
 * on a conflict, so no replica's entry is ever lost to another's write.
 */
final class StatusWriter {

    private static final int ATTEMPTS = 8;

    private final KubernetesClient client;
    private final String replica;

    StatusWriter(KubernetesClient client, String replica) {
        this.client = client;
        this.replica = replica;
    }

    /** Puts {@code entry} (without its replica key) as this replica's; false if the object is gone. */
    boolean write(String name, Map<String, Object> entry) {
        for (int attempt = 1; ; attempt++) {
            GenericKubernetesResource o = client.genericKubernetesResources(
                            PluginDelivery.API_VERSION, PluginDelivery.KIND)
                    .withName(name)
                    .get();
            if (o == null) {
                return false;
            }
            Map<String, Object> status = status(o);
            List<Map<String, Object>> replicas = new ArrayList<>();
            if (status.get("replicas") instanceof List<?> l) {
                for (Object e : l) {
                    if (e instanceof Map<?, ?> m && !replica.equals(m.get("replica"))) {
                        replicas.add(copy(m));
                    }
                }
            }
            Map<String, Object> mine = new LinkedHashMap<>();
            mine.put("replica", replica);
            mine.putAll(entry);
            replicas.add(mine);
            replicas.sort((a, b) -> String.valueOf(a.get("replica")).compareTo(String.valueOf(b.get("replica"))));
            status.put("replicas", replicas);
            summarize(status, replicas);
            o.setAdditionalProperty("status", status);
            try {
                client.genericKubernetesResources(PluginDelivery.API_VERSION, PluginDelivery.KIND)
                        .resource(o)
                        .updateStatus();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return false;
                }
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw e;
                }
                // another replica wrote in between: read its entry and write again
            }
        }
    }

    private static void summarize(Map<String, Object> status, List<Map<String, Object>> replicas) {
        Set<String> bundles = new LinkedHashSet<>();
        Map<String, Integer> states = new TreeMap<>();
        int running = 0;
        for (Map<String, Object> r : replicas) {
            String state = String.valueOf(r.get("state"));
            states.merge(state, 1, Integer::sum);
            if (state.equals("active") || state.equals("standby") || state.equals("shadow")) {
                running++;
            }
            if (r.get("bundle") != null) {
                bundles.add(r.get("bundle") + " " + r.get("version"));
            }
        }
        status.put("bundle", String.join(", ", bundles));
        status.put("ready", running + "/" + replicas.size());
        StringBuilder s = new StringBuilder();
        states.forEach((k, v) ->
                s.append(s.length() == 0 ? "" : ",").append(k).append('=').append(v));
        status.put("states", s.toString());
    }

    private static Map<String, Object> status(GenericKubernetesResource o) {
        return o.getAdditionalProperties().get("status") instanceof Map<?, ?> m ? copy(m) : new LinkedHashMap<>();
    }

    private static Map<String, Object> copy(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }
}
