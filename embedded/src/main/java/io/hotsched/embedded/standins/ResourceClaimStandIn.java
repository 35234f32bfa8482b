package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays kube-controller-manager's resourceclaim controller (resource.k8s.io/v1): for each
 * {@code spec.resourceClaims[]} entry of a pod that names a {@code resourceClaimTemplateName}, it
 * creates a ResourceClaim from the template (its metadata's labels and annotations, its spec), named
 * as upstream generates it ({@code <pod>-<claim>-} and five random characters), annotated
 * {@value #POD_CLAIM_NAME} with the entry's name and owned by the pod (controller), and records it
 * in the pod's {@code status.resourceClaimStatuses}. A pod that is deleted, or that ended
 * (Succeeded, Failed), takes its generated claims with it, as upstream's garbage collector and this
 * controller do (an ended pod's claim only while it is reserved for no one), first freeing the
 * devices the scheduler allocated to it and removing its delete-protection finalizer. The informers of pods
 * and claims start with the first ResourceClaimTemplate, so a cluster without any keeps one idle
 * watch.
 */
final class ResourceClaimStandIn implements AutoCloseable {

    static final String POD_CLAIM_NAME = "resource.kubernetes.io/pod-claim-name";
    /** The finalizer the scheduler puts on a claim it allocates. */
    static final String DELETE_PROTECTION = "resource.kubernetes.io/delete-protection";
    /** Room for five random characters in a 63-character name, as upstream leaves. */
    private static final int MAX_BASE = 57;

    private final KubernetesClient client;
    private final LazyInformer<Pod> pods;
    private final LazyInformer<ResourceClaim> claims;
    private final WorkQueue queue = new WorkQueue("resource-claim-controller", this::sync);
    /** Claims created before the claim cache shows them: pod uid and pod claim name, to claim name. */
    private final Map<String, String> created = new ConcurrentHashMap<>();

    private SharedIndexInformer<ResourceClaimTemplate> templates;

    ResourceClaimStandIn(KubernetesClient client, LazyInformer<Pod> pods) {
        this.client = client;
        this.pods = pods;
        this.claims = new LazyInformer<>(client, ResourceClaim.class);
    }

    void start() {
        pods.addHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod p) {
                queueIfClaims(p);
            }

            @Override
            public void onUpdate(Pod old, Pod p) {
                queueIfClaims(p);
            }

            @Override
            public void onDelete(Pod p, boolean unknownFinalState) {
                if (fromTemplates(p)) {
                    queue.add("deleted:" + p.getMetadata().getNamespace() + "/"
                            + p.getMetadata().getUid());
                }
            }
        });
        templates =
                client.resources(ResourceClaimTemplate.class).inAnyNamespace().runnableInformer(0);
        templates.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ResourceClaimTemplate t) {
                queue.add("template:" + Ownership.key(t));
            }

            @Override
            public void onUpdate(ResourceClaimTemplate old, ResourceClaimTemplate t) {}

            @Override
            public void onDelete(ResourceClaimTemplate t, boolean unknownFinalState) {}
        });
        templates.run();
    }

    private static boolean fromTemplates(Pod p) {
        return p.getSpec().getResourceClaims() != null
                && p.getSpec().getResourceClaims().stream().anyMatch(c -> c.getResourceClaimTemplateName() != null);
    }

    private void queueIfClaims(Pod p) {
        if (fromTemplates(p)) {
            queue.add("pod:" + Ownership.key(p));
        }
    }

    private void sync(String key) {
        if (key.startsWith("template:")) {
            // the first template starts the pod and claim caches (whose listing queues every pod);
            // later ones queue the pods waiting for them
            claims.need(this, true);
            pods.need(this, true);
            String namespace = key.substring("template:".length(), key.indexOf('/'));
            pods.all().stream()
                    .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                    .forEach(this::queueIfClaims);
        } else if (key.startsWith("deleted:")) {
            String[] nsUid = key.substring("deleted:".length()).split("/", 2);
            deleteGenerated(nsUid[0], nsUid[1], true);
        } else {
            Pod pod = pods.get(key.substring("pod:".length()));
            if (pod != null && pod.getMetadata().getDeletionTimestamp() == null) {
                syncPod(pod);
            }
        }
    }

    private void syncPod(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            deleteGenerated(pod.getMetadata().getNamespace(), pod.getMetadata().getUid(), false);
            return;
        }
        Map<String, String> recorded = new LinkedHashMap<>();
        if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
            pod.getStatus()
                    .getResourceClaimStatuses()
                    .forEach(s -> recorded.put(s.getName(), s.getResourceClaimName()));
        }
        Map<String, String> added = new LinkedHashMap<>();
        for (PodResourceClaim pc : pod.getSpec().getResourceClaims()) {
            if (pc.getResourceClaimTemplateName() == null) {
                continue;
            }
            String name = recorded.get(pc.getName());
            if (name != null && exists(pod, name)) {
                continue;
            }
            String claim = generatedFor(pod, pc.getName());
            if (claim == null) {
                claim = create(pod, pc);
            }
            if (claim != null && !claim.equals(name)) {
                added.put(pc.getName(), claim);
            }
        }
        if (!added.isEmpty()) {
            recorded.putAll(added);
            writeStatuses(pod, recorded);
        }
    }

    /** The claim this stand-in generated for {@code podClaim} of {@code pod}, or null. */
    private String generatedFor(Pod pod, String podClaim) {
        String key = pod.getMetadata().getUid() + "/" + podClaim;
        for (ResourceClaim c : claims.ownedBy(pod.getMetadata().getUid())) {
            if (podClaim.equals(annotations(c).get(POD_CLAIM_NAME))) {
                created.remove(key); // the cache caught up
                return c.getMetadata().getName();
            }
        }
        return created.get(key);
    }

    /** Whether the claim {@code name} of the pod's namespace exists and is the pod's; asks the server when the cache lags. */
    private boolean exists(Pod pod, String name) {
        String key = pod.getMetadata().getNamespace() + "/" + name;
        ResourceClaim c = claims.get(key);
        if (c == null && created.containsValue(name)) {
            return true;
        }
        if (c == null) {
            c = client.resources(ResourceClaim.class)
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(name)
                    .get();
        }
        return c != null
                && Ownership.controllerOf(c) != null
                && pod.getMetadata().getUid().equals(Ownership.controllerOf(c).getUid());
    }

    /** Creates the claim of {@code pc} from its template; null while the template does not exist (its arrival queues the pod). */
    private String create(Pod pod, PodResourceClaim pc) {
        String namespace = pod.getMetadata().getNamespace();
        ResourceClaimTemplate template =
                templates.getStore().getByKey(namespace + "/" + pc.getResourceClaimTemplateName());
        if (template == null) {
            return null;
        }
        ObjectMeta meta = template.getSpec().getMetadata();
        Map<String, String> annotations =
                new HashMap<>(meta == null || meta.getAnnotations() == null ? Map.of() : meta.getAnnotations());
        annotations.put(POD_CLAIM_NAME, pc.getName());
        ResourceClaim claim = new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(Names.generated(namePrefix(pod.getMetadata().getName(), pc.getName())))
                .withNamespace(namespace)
                .withLabels(meta == null ? null : meta.getLabels())
                .withAnnotations(annotations)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("Pod")
                        .withName(pod.getMetadata().getName())
                        .withUid(pod.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .endMetadata()
                .withSpec(Serialization.clone(template.getSpec().getSpec()))
                .build();
        // a clash of generated names is a 409: the queue runs this again with a new name
        client.resource(claim).create();
        created.put(
                pod.getMetadata().getUid() + "/" + pc.getName(),
                claim.getMetadata().getName());
        return claim.getMetadata().getName();
    }

    /**
     * Upstream's base of a generated name: {@code <pod>-<claim>-}, and when that is longer than 57
     * characters, both parts cut in proportion to their lengths (joined by one hyphen, none after).
     */
    static String namePrefix(String pod, String podClaim) {
        String base = pod + "-" + podClaim + "-";
        if (base.length() <= MAX_BASE) {
            return base;
        }
        int len = base.length();
        return pod.substring(0, pod.length() * MAX_BASE / len) + "-"
                + podClaim.substring(0, podClaim.length() * MAX_BASE / len);
    }

    private void writeStatuses(Pod pod, Map<String, String> byPodClaim) {
        List<PodResourceClaimStatus> statuses = new ArrayList<>();
        byPodClaim.forEach((name, claim) -> statuses.add(new PodResourceClaimStatus(name, claim)));
        Map<String, Object> patch = Map.of("status", Map.of("resourceClaimStatuses", statuses));
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /**
     * Deletes the claims generated for the pod of {@code uid}: all of them once it is gone, those
     * reserved for no one once it ended.
     */
    private void deleteGenerated(String namespace, String uid, boolean podGone) {
        List<String> names = new ArrayList<>();
        for (ResourceClaim c : claims.ownedBy(uid)) {
            boolean reserved = c.getStatus() != null
                    && c.getStatus().getReservedFor() != null
                    && !c.getStatus().getReservedFor().isEmpty();
            if (podGone || !reserved) {
                names.add(c.getMetadata().getName());
            }
        }
        created.entrySet().removeIf(e -> {
            if (e.getKey().startsWith(uid + "/")) {
                names.add(e.getValue());
                return true;
            }
            return false;
        });
        for (String name : names.stream().distinct().toList()) {
            release(namespace, name);
            client.resources(ResourceClaim.class)
                    .inNamespace(namespace)
                    .withName(name)
                    .delete();
        }
    }

    /**
     * What upstream's controller does before a claim the scheduler allocated can go: its
     * reservations and allocation are removed (the devices are free again), then the scheduler's
     * {@value #DELETE_PROTECTION} finalizer.
     */
    private void release(String namespace, String name) {
        var claim = client.resources(ResourceClaim.class).inNamespace(namespace).withName(name);
        ResourceClaim c = claim.get();
        if (c == null
                || c.getMetadata().getFinalizers() == null
                || !c.getMetadata().getFinalizers().contains(DELETE_PROTECTION)) {
            return;
        }
        try {
            if (c.getStatus() != null
                    && (c.getStatus().getAllocation() != null || c.getStatus().getReservedFor() != null)) {
                claim.editStatus(x -> {
                    x.getStatus().setAllocation(null);
                    x.getStatus().setReservedFor(null);
                    return x;
                });
            }
            claim.edit(x -> {
                x.getMetadata().getFinalizers().remove(DELETE_PROTECTION);
                return x;
            });
        } catch (KubernetesClientException e) {
            // gone meanwhile, or changed: the delete below (or the next sync) decides
        }
    }

    private static Map<String, String> annotations(HasMetadata o) {
        return Objects.requireNonNullElse(o.getMetadata().getAnnotations(), Map.of());
    }

    @Override
    public void close() {
        queue.close();
        if (templates != null) {
            templates.stop();
        }
        claims.close();
    }
}
