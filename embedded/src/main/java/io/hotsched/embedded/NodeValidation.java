package io.hotsched.embedded;

import io.hotsched.embedded.FieldErrors.Cause;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * kube-apiserver's node spec rules: taints with a qualified key, a label-syntax value, a supported
 * effect, unique by key and effect (reported under {@code metadata.taints}, as kube-apiserver
 * does); {@code podCIDRs} valid CIDRs; and on update {@code podCIDRs} and {@code providerID} fixed
 * once set.
 */
final class NodeValidation {

    private static final List<String> EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    private static final String OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|0*\\d?\\d)";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");
    private static final String FIXED = "node updates may not change %s except from \"\" to valid";

    private NodeValidation() {}

    /**
     * Why kube-apiserver cannot decode {@code node} at all, or null: a capacity or allocatable that
     * is not a quantity fails its decoding, before any validation, with a 400 that names neither
     * the field nor the value (its words, kept).
     */
    static String undecodable(JsonNode node) {
        for (String list : List.of("capacity", "allocatable")) {
            if (!Quantities.allDecode(node.path("status").path(list))) {
                return "Node in version \"v1\" cannot be handled as a Node: " + Quantities.MESSAGE;
            }
        }
        return null;
    }

    static void check(JsonNode node, JsonNode old, List<Cause> causes) {
        JsonNode spec = node.path("spec");
        taints(spec.path("taints"), causes);
        JsonNode cidrs = spec.path("podCIDRs");
        for (int i = 0; i < cidrs.size(); i++) {
            if (!isCidr(cidrs.get(i).asText(""))) {
                causes.add(FieldErrors.invalid("spec.podCIDRs[" + i + "]", goStrings(cidrs), "must be valid CIDR"));
            }
        }
        for (String list : List.of("capacity", "allocatable")) {
            for (Map.Entry<String, JsonNode> q : node.path("status").path(list).properties()) {
                if (q.getValue().asText("").trim().startsWith("-")) {
                    causes.add(FieldErrors.invalid(
                            "status." + list + "." + q.getKey(),
                            q.getValue().asText(""),
                            "must be greater than or equal to 0"));
                }
            }
        }
        if (old == null) {
            return;
        }
        JsonNode wasCidrs = old.path("spec").path("podCIDRs");
        if (!wasCidrs.isEmpty() && !JsonValues.same(wasCidrs, cidrs)) {
            causes.add(FieldErrors.forbidden("spec.podCIDRs", String.format(FIXED, "podCIDR")));
        }
        String provider = old.path("spec").path("providerID").asText("");
        if (!provider.isEmpty() && !provider.equals(spec.path("providerID").asText(""))) {
            causes.add(FieldErrors.forbidden("spec.providerID", String.format(FIXED, "providerID")));
        }
    }

    private static void taints(JsonNode taints, List<Cause> causes) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < taints.size(); i++) {
            JsonNode t = taints.get(i);
            String at = "metadata.taints[" + i + "]";
            String key = t.path("key").asText("");
            String value = t.path("value").asText("");
            String effect = t.path("effect").asText("");
            for (String m : Names.qualifiedName(key)) {
                causes.add(FieldErrors.invalid(at + ".key", key, m));
            }
            List<String> bad = Names.labelValue(value);
            if (!bad.isEmpty()) {
                causes.add(FieldErrors.invalid(at + ".value", value, String.join(";", bad)));
            }
            if (effect.isEmpty()) {
                causes.add(FieldErrors.required(at + ".effect", ""));
            } else if (!EFFECTS.contains(effect)) {
                causes.add(FieldErrors.notSupported(at + ".effect", effect, EFFECTS));
            }
            if (!seen.add(effect + "\u0000" + key)) {
                causes.add(FieldErrors.duplicate(
                        at,
                        new FieldErrors.GoValue("core.Taint{Key:" + StatusJson.quote(key) + ", Value:"
                                + StatusJson.quote(value) + ", Effect:" + StatusJson.quote(effect)
                                + ", TimeAdded:(*v1.Time)(nil)}"),
                        "taints must be unique by key and effect pair"));
            }
        }
    }

    static boolean isCidr(String s) {
        int slash = s.indexOf('/');
        if (slash < 0) {
            return false;
        }
        String address = s.substring(0, slash);
        int bits;
        try {
            bits = Integer.parseInt(s.substring(slash + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (address.contains(":")) {
            try {
                // a literal IPv6 address is parsed, never looked up
                java.net.InetAddress.getByName("[" + address + "]");
            } catch (java.net.UnknownHostException | SecurityException e) {
                return false;
            }
            return bits >= 0 && bits <= 128;
        }
        return IPV4.matcher(address).matches() && bits >= 0 && bits <= 32;
    }

    private static FieldErrors.GoValue goStrings(JsonNode list) {
        StringBuilder b = new StringBuilder("[]string{");
        for (int i = 0; i < list.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(StatusJson.quote(list.get(i).asText("")));
        }
        return new FieldErrors.GoValue(b.append('}').toString());
    }
}
