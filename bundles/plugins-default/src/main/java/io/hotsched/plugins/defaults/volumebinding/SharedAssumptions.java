package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.hotsched.api.framework.Reservations;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The assumptions of every VolumeBinding instance, shared through the framework's
 * {@link Reservations}: Reserve records the volumes it prebound and the claims it gave a node, as
 * strings; the other instances (the newer version that serves while the old one finishes its pods
 * after an upgrade, the instance of another profile) lay them over the listers' objects as their
 * own assumptions are, so none of them hands out the same volume again. A record applies while the
 * listed object still has the resourceVersion it was made from; PreBind's write moves it past.
 */
final class SharedAssumptions {

    private static final String VOLUME = "pv/";
    private static final String CLAIM = "pvc/";
    private static final String SEPARATOR = "|";

    /** An object as some instance assumed it, and the listed version it was made from. */
    private record Assumed<T>(long version, T object) {}

    private volatile Map<String, Assumed<PersistentVolume>> volumes = Map.of();
    private volatile Map<String, Assumed<PersistentVolumeClaim>> claims = Map.of();

    /** The record of what Reserve assumed for one pod. */
    static Map<String, String> entries(PodVolumes assumed) {
        Map<String, String> out = new HashMap<>();
        for (PodVolumes.Binding b : assumed.staticBindings) {
            PersistentVolume pv = b.pv();
            ObjectReference ref = pv.getSpec().getClaimRef();
            boolean byController = pv.getMetadata().getAnnotations() != null
                    && pv.getMetadata().getAnnotations().containsKey(VolumeBinder.BOUND_BY_CONTROLLER);
            out.put(
                    VOLUME + pv.getMetadata().getName(),
                    String.join(
                            SEPARATOR,
                            Long.toString(AssumeCache.version(pv)),
                            nonNull(ref.getNamespace()),
                            nonNull(ref.getName()),
                            nonNull(ref.getUid()),
                            nonNull(ref.getResourceVersion()),
                            Boolean.toString(byController)));
        }
        for (PodVolumes.Provision p : assumed.dynamicProvisions) {
            PersistentVolumeClaim c = p.pvc();
            out.put(
                    CLAIM + VolumeMatch.namespace(c.getMetadata().getNamespace()) + "/"
                            + c.getMetadata().getName(),
                    AssumeCache.version(c)
                            + SEPARATOR
                            + c.getMetadata().getAnnotations().get(VolumeBinder.SELECTED_NODE));
        }
        return out;
    }

    /**
     * Reads the records of all instances again, building each assumed object once from the listed
     * one it was made from; called once per pod with claims, before its Filter.
     */
    void refresh(
            List<Reservations.Reservation> records,
            AssumeCache<PersistentVolume> pvs,
            AssumeCache<PersistentVolumeClaim> pvcs) {
        if (records.isEmpty()) {
            volumes = Map.of();
            claims = Map.of();
            return;
        }
        Map<String, Assumed<PersistentVolume>> v = new HashMap<>();
        Map<String, Assumed<PersistentVolumeClaim>> c = new HashMap<>();
        for (Reservations.Reservation r : records) {
            for (Map.Entry<String, String> e : r.entries().entrySet()) {
                String[] f = e.getValue().split("\\|", -1);
                if (e.getKey().startsWith(VOLUME) && f.length == 6) {
                    String name = e.getKey().substring(VOLUME.length());
                    PersistentVolume listed = pvs.api(null, name);
                    if (listed != null && AssumeCache.version(listed) == Long.parseLong(f[0])) {
                        v.put(name, new Assumed<>(Long.parseLong(f[0]), prebound(listed, f)));
                    }
                } else if (e.getKey().startsWith(CLAIM) && f.length == 2) {
                    String key = e.getKey().substring(CLAIM.length());
                    int slash = key.indexOf('/');
                    PersistentVolumeClaim listed = pvcs.api(key.substring(0, slash), key.substring(slash + 1));
                    if (listed != null && AssumeCache.version(listed) == Long.parseLong(f[0])) {
                        c.put(key, new Assumed<>(Long.parseLong(f[0]), selected(listed, f[1])));
                    }
                }
            }
        }
        volumes = v;
        claims = c;
    }

    /** The volume as another instance assumed it, or {@code listed} itself. */
    PersistentVolume volume(PersistentVolume listed) {
        Assumed<PersistentVolume> a = volumes.get(listed.getMetadata().getName());
        return a != null && a.version() == AssumeCache.version(listed) ? a.object() : listed;
    }

    /** The claim as another instance assumed it, or {@code listed} itself. */
    PersistentVolumeClaim claim(PersistentVolumeClaim listed) {
        Assumed<PersistentVolumeClaim> a =
                claims.get(VolumeMatch.namespace(listed.getMetadata().getNamespace()) + "/"
                        + listed.getMetadata().getName());
        return a != null && a.version() == AssumeCache.version(listed) ? a.object() : listed;
    }

    private static PersistentVolume prebound(PersistentVolume listed, String[] f) {
        PersistentVolumeBuilder b = new PersistentVolumeBuilder(listed)
                .editSpec()
                .withClaimRef(new ObjectReferenceBuilder()
                        .withKind("PersistentVolumeClaim")
                        .withApiVersion("v1")
                        .withNamespace(f[1])
                        .withName(f[2])
                        .withUid(f[3].isEmpty() ? null : f[3])
                        .withResourceVersion(f[4].isEmpty() ? null : f[4])
                        .build())
                .endSpec();
        if (Boolean.parseBoolean(f[5])) {
            b.editMetadata()
                    .addToAnnotations(VolumeBinder.BOUND_BY_CONTROLLER, "yes")
                    .endMetadata();
        }
        return b.build();
    }

    private static PersistentVolumeClaim selected(PersistentVolumeClaim listed, String node) {
        return new PersistentVolumeClaimBuilder(listed)
                .editMetadata()
                .addToAnnotations(VolumeBinder.SELECTED_NODE, node)
                .endMetadata()
                .build();
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
