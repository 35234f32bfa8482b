package io.hotsched.embedded;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the protobuf bodies that kubectl's typed clients send for built-in kinds ({@code k8s\0}
 * followed by a {@code runtime.Unknown} that wraps the object) into the JSON the store keeps, as
 * kube-apiserver would have decoded and re-encoded them. The field names come from the Kubernetes
 * descriptors of {@code client-java-proto} (Kubernetes 1.36); a kind they do not describe is refused by name.
 */
final class ProtobufBodies {

    static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Proto package segment to API group, for the groups whose descriptors are loaded. */
    private static final Map<String, String> GROUPS = Map.of(
            "core", "",
            "apps", "apps",
            "batch", "batch",
            "policy", "policy",
            "autoscaling", "autoscaling",
            "scheduling", "scheduling.k8s.io",
            "storage", "storage.k8s.io",
            "rbac", "rbac.authorization.k8s.io",
            "networking", "networking.k8s.io");

    /** "apiVersion kind" to its message. */
    private static final Map<String, Descriptor> KINDS = new HashMap<>();

    static {
        for (FileDescriptor f : List.of(
                V1.getDescriptor(),
                V1Apps.getDescriptor(),
                V1Batch.getDescriptor(),
                V1Policy.getDescriptor(),
                V1Autoscaling.getDescriptor(),
                V1Scheduling.getDescriptor(),
                V1Storage.getDescriptor(),
                V1Rbac.getDescriptor(),
                V1Networking.getDescriptor())) {
            // k8s.io.api.<group>.<version>
            String[] p = f.getPackage().split("\\.");
            String group = GROUPS.get(p[3]);
            if (group == null) {
                continue;
            }
            String apiVersion = group.isEmpty() ? p[4] : group + "/" + p[4];
            for (Descriptor d : f.getMessageTypes()) {
                KINDS.put(apiVersion + " " + d.getName(), d);
            }
        }
        // DeleteOptions (kubectl delete, drain) travel as v1 and as meta.k8s.io/v1
        for (Descriptor d : Meta.getDescriptor().getMessageTypes()) {
            KINDS.putIfAbsent("v1 " + d.getName(), d);
            KINDS.putIfAbsent("meta.k8s.io/v1 " + d.getName(), d);
        }
    }

    /**
     * Go pointer fields, where an explicit zero, false or "" is a value (a Go encoder keeps it);
     * every other scalar at its zero value is what a non-pointer Go field always sends, and the JSON
     * encoder's omitempty drops it.
     */
    private static final Set<String> ZERO_IS_A_VALUE = Set.of(
            "replicas",
            "terminationGracePeriodSeconds",
            "activeDeadlineSeconds",
            "priority",
            "value",
            "enableServiceLinks",
            "automountServiceAccountToken",
            "parallelism",
            "completions",
            "backoffLimit",
            "suspend",
            "ttlSecondsAfterFinished",
            "runAsUser",
            "runAsGroup",
            "runAsNonRoot",
            "fsGroup",
            "allowPrivilegeEscalation",
            "privileged",
            "readOnlyRootFilesystem",
            "tolerationSeconds",
            "optional",
            "defaultMode",
            "mode",
            "revisionHistoryLimit",
            "progressDeadlineSeconds",
            "hostUsers",
            "storageClassName",
            "restartCount",
            "ready");

    private ProtobufBodies() {}

    /** A body that cannot be read, with the reason for the client. */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message);
        }
    }

    /** The object of a protobuf body, as JSON. */
    static String toJson(byte[] body) throws Unreadable {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw new Unreadable("the protobuf body does not start with the Kubernetes envelope (k8s\\0)");
        }
        try {
            // read through the descriptors, as the object is: the generated parser of runtime.Unknown
            // in client-java-proto 26+ is pre-22 protobuf gencode (GHSA-h4h5-3hr4-j3g2)
            Descriptor envelope = Runtime.Unknown.getDescriptor();
            DynamicMessage unknown = DynamicMessage.parseFrom(
                    envelope, ByteString.copyFrom(body, MAGIC.length, body.length - MAGIC.length));
            Message typeMeta = (Message) unknown.getField(envelope.findFieldByName("typeMeta"));
            String apiVersion =
                    (String) typeMeta.getField(typeMeta.getDescriptorForType().findFieldByName("apiVersion"));
            String kind =
                    (String) typeMeta.getField(typeMeta.getDescriptorForType().findFieldByName("kind"));
            Descriptor d = KINDS.get(apiVersion + " " + kind);
            if (d == null) {
                throw new Unreadable("the embedded API server cannot read " + kind + " (" + apiVersion
                        + ") in protobuf; send it as application/json");
            }
            ObjectNode out = F.objectNode();
            out.put("apiVersion", apiVersion);
            out.put("kind", kind);
            out.setAll(object(
                    DynamicMessage.parseFrom(d, (ByteString) unknown.getField(envelope.findFieldByName("raw")))));
            return JSON.writeValueAsString(out);
        } catch (InvalidProtocolBufferException e) {
            throw new Unreadable("the protobuf body could not be read: " + e.getMessage());
        }
    }

    private static ObjectNode object(Message m) {
        ObjectNode o = F.objectNode();
        for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
            if (f.isMapField()) {
                int n = m.getRepeatedFieldCount(f);
                if (n > 0) {
                    ObjectNode map = o.putObject(f.getName());
                    for (int i = 0; i < n; i++) {
                        Message entry = (Message) m.getRepeatedField(f, i);
                        Descriptor ed = entry.getDescriptorForType();
                        FieldDescriptor valueField = ed.findFieldByName("value");
                        map.set(
                                String.valueOf(entry.getField(ed.findFieldByName("key"))),
                                value(valueField, entry.getField(valueField), true));
                    }
                }
            } else if (f.isRepeated()) {
                int n = m.getRepeatedFieldCount(f);
                if (n > 0) {
                    ArrayNode a = o.putArray(f.getName());
                    for (int i = 0; i < n; i++) {
                        a.add(value(f, m.getRepeatedField(f, i), true));
                    }
                }
            } else if (m.hasField(f)) {
                JsonNode v = value(f, m.getField(f), ZERO_IS_A_VALUE.contains(f.getName()));
                if (v != null) {
                    o.set(f.getName(), v);
                }
            }
        }
        return o;
    }

    /** The JSON of one field value; null to leave it out. */
    private static JsonNode value(FieldDescriptor f, Object v, boolean keepZero) {
        switch (f.getJavaType()) {
            case MESSAGE:
                return message((Message) v);
            case STRING:
                return keepZero || !((String) v).isEmpty() ? F.textNode((String) v) : null;
            case BOOLEAN:
                return keepZero || (Boolean) v ? F.booleanNode((Boolean) v) : null;
            case INT:
                return keepZero || (Integer) v != 0 ? F.numberNode((Integer) v) : null;
            case LONG:
                return keepZero || (Long) v != 0 ? F.numberNode((Long) v) : null;
            case DOUBLE:
                return keepZero || (Double) v != 0 ? F.numberNode((Double) v) : null;
            case FLOAT:
                return keepZero || (Float) v != 0 ? F.numberNode((Float) v) : null;
            case BYTE_STRING:
                ByteString b = (ByteString) v;
                return keepZero || !b.isEmpty()
                        ? F.textNode(Base64.getEncoder().encodeToString(b.toByteArray()))
                        : null;
            default:
                return F.textNode(String.valueOf(v));
        }
    }

    /** Messages that JSON writes as a scalar; the rest as objects. */
    private static JsonNode message(Message m) {
        Descriptor d = m.getDescriptorForType();
        switch (d.getFullName()) {
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time", "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> {
                long seconds = (Long) m.getField(d.findFieldByName("seconds"));
                int nanos = (Integer) m.getField(d.findFieldByName("nanos"));
                if (seconds == 0 && nanos == 0) {
                    return null;
                }
                Instant t = Instant.ofEpochSecond(seconds, nanos);
                return F.textNode(
                        d.getName().equals("Time")
                                ? DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS))
                                : DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                                        .withZone(java.time.ZoneOffset.UTC)
                                        .format(t));
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                return F.textNode((String) m.getField(d.findFieldByName("string")));
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                long type = ((Number) m.getField(d.findFieldByName("type"))).longValue();
                return type == 0
                        ? F.numberNode((Integer) m.getField(d.findFieldByName("intVal")))
                        : F.textNode((String) m.getField(d.findFieldByName("strVal")));
            }
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" -> {
                return F.textNode(java.time.Duration.ofNanos((Long) m.getField(d.findFieldByName("duration")))
                        .toString()
                        .substring(2)
                        .toLowerCase(java.util.Locale.ROOT));
            }
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" -> {
                FieldDescriptor raw = d.getFields().get(0);
                ByteString bytes = (ByteString) m.getField(raw);
                try {
                    return bytes.isEmpty() ? null : JSON.readTree(bytes.toStringUtf8());
                } catch (RuntimeException e) {
                    return F.textNode(Base64.getEncoder().encodeToString(bytes.toByteArray()));
                }
            }
            default -> {
                return object(m);
            }
        }
    }
}
