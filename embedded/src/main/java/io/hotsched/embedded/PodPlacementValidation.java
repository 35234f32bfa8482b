package io.hotsched.embedded;

import io.hotsched.embedded.FieldErrors.Cause;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * kube-apiserver's rules for what a scheduler reads of a pod: requests and limits not negative,
 * host ports in range, tolerations, node and pod affinity terms, topology spread constraints and
 * the node selector, with its field paths and words. Without them the embedded server stored pods
 * kube-apiserver refuses, and the scheduler's tests met objects no real cluster holds.
 */
final class PodPlacementValidation {

    private static final Pattern NEGATIVE = Pattern.compile("\\s*-.*");
    private static final List<String> NODE_OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
    private static final List<String> UNSATISFIABLE = List.of("DoNotSchedule", "ScheduleAnyway");
    private static final List<String> TOLERATION_OPERATORS = List.of("Equal", "Exists");

    private PodPlacementValidation() {}

    static void check(JsonNode spec, List<Cause> causes) {
        containers("spec.containers", spec.path("containers"), causes);
        containers("spec.initContainers", spec.path("initContainers"), causes);
        tolerations(spec.path("tolerations"), causes);
        labelValues("spec.nodeSelector", spec.path("nodeSelector"), causes);
        JsonNode affinity = spec.path("affinity");
        nodeAffinity(affinity.path("nodeAffinity"), causes);
        podAffinity("spec.affinity.podAffinity", affinity.path("podAffinity"), causes);
        podAffinity("spec.affinity.podAntiAffinity", affinity.path("podAntiAffinity"), causes);
        spread(spec.path("topologySpreadConstraints"), causes);
    }

    private static void containers(String path, JsonNode list, List<Cause> causes) {
        for (int i = 0; i < list.size(); i++) {
            String at = path + "[" + i + "]";
            JsonNode c = list.get(i);
            for (String kind : List.of("requests", "limits")) {
                for (Map.Entry<String, JsonNode> q :
                        c.path("resources").path(kind).properties()) {
                    if (NEGATIVE.matcher(q.getValue().asText("")).matches()) {
                        causes.add(FieldErrors.invalid(
                                at + ".resources." + kind + "[" + q.getKey() + "]",
                                q.getValue().asText(""),
                                "must be greater than or equal to 0"));
                    }
                }
            }
            JsonNode ports = c.path("ports");
            for (int p = 0; p < ports.size(); p++) {
                JsonNode host = ports.get(p).path("hostPort");
                if (host.isNumber() && (host.asLong() < 1 || host.asLong() > 65535) && host.asLong() != 0) {
                    causes.add(FieldErrors.invalid(
                            at + ".ports[" + p + "].hostPort",
                            host.asLong(),
                            "must be between 1 and 65535, inclusive"));
                }
            }
        }
    }

    private static void tolerations(JsonNode list, List<Cause> causes) {
        for (int i = 0; i < list.size(); i++) {
            String at = "spec.tolerations[" + i + "]";
            JsonNode t = list.get(i);
            String operator = t.path("operator").asText("");
            String value = t.path("value").asText("");
            if (!operator.isEmpty() && !TOLERATION_OPERATORS.contains(operator)) {
                causes.add(FieldErrors.notSupported(at + ".operator", operator, TOLERATION_OPERATORS));
            } else if (operator.equals("Exists") && !value.isEmpty()) {
                causes.add(FieldErrors.invalid(
                        at + ".operator", operator, "value must be empty when `operator` is 'Exists'"));
            }
        }
    }

    private static void labelValues(String path, JsonNode map, List<Cause> causes) {
        for (Map.Entry<String, JsonNode> e : map.properties()) {
            for (String m : Names.labelValue(e.getValue().asText(""))) {
                causes.add(FieldErrors.invalid(path, e.getValue().asText(""), m));
            }
        }
    }

    private static void nodeAffinity(JsonNode affinity, List<Cause> causes) {
        String path = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
        JsonNode terms =
                affinity.path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms");
        for (int t = 0; t < terms.size(); t++) {
            JsonNode expressions = terms.get(t).path("matchExpressions");
            for (int e = 0; e < expressions.size(); e++) {
                requirement(path + "[" + t + "].matchExpressions[" + e + "]", expressions.get(e), causes);
            }
        }
    }

    private static void requirement(String at, JsonNode r, List<Cause> causes) {
        String operator = r.path("operator").asText("");
        int values = r.path("values").size();
        switch (operator) {
            case "In", "NotIn" -> {
                if (values == 0) {
                    causes.add(FieldErrors.required(
                            at + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (values > 0) {
                    causes.add(FieldErrors.forbidden(
                            at + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                }
            }
            case "Gt", "Lt" -> {
                if (values != 1) {
                    causes.add(FieldErrors.required(
                            at + ".values", "must be specified single value when `operator` is 'Lt' or 'Gt'"));
                }
            }
            default -> causes.add(FieldErrors.invalid(at + ".operator", operator, "not a valid selector operator"));
        }
    }

    private static void podAffinity(String path, JsonNode affinity, List<Cause> causes) {
        JsonNode terms = affinity.path("requiredDuringSchedulingIgnoredDuringExecution");
        for (int i = 0; i < terms.size(); i++) {
            String at = path + ".requiredDuringSchedulingIgnoredDuringExecution[" + i + "]";
            JsonNode term = terms.get(i);
            if (term.path("topologyKey").asText("").isEmpty()) {
                causes.add(FieldErrors.required(at + ".topologyKey", "can not be empty"));
            }
            labelValues(
                    at + ".labelSelector.matchLabels",
                    term.path("labelSelector").path("matchLabels"),
                    causes);
        }
    }

    private static void spread(JsonNode constraints, List<Cause> causes) {
        for (int i = 0; i < constraints.size(); i++) {
            String at = "spec.topologySpreadConstraints[" + i + "]";
            JsonNode c = constraints.get(i);
            if (c.path("maxSkew").asLong(0) <= 0) {
                causes.add(
                        FieldErrors.invalid(at + ".maxSkew", c.path("maxSkew").asLong(0), "must be greater than zero"));
            }
            if (c.path("topologyKey").asText("").isEmpty()) {
                causes.add(FieldErrors.required(at + ".topologyKey", "can not be empty"));
            }
            String when = c.path("whenUnsatisfiable").asText("");
            if (!UNSATISFIABLE.contains(when)) {
                causes.add(FieldErrors.notSupported(at + ".whenUnsatisfiable", when, UNSATISFIABLE));
            }
        }
    }
}
