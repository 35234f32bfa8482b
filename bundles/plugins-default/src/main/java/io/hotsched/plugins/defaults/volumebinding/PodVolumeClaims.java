package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;
import java.util.Map;

/**
 * A pod's claims as PreFilter sorts them (upstream's PodVolumeClaims): fully bound; unbound of a
 * WaitForFirstConsumer class (the scheduler binds or provisions them); unbound otherwise (the
 * PersistentVolume controller should have bound them already). With, per class of the delayed ones,
 * the volumes of that class.
 */
record PodVolumeClaims(
        List<PersistentVolumeClaim> bound,
        List<PersistentVolumeClaim> unboundDelayBinding,
        List<PersistentVolumeClaim> unboundImmediate,
        Map<String, List<PersistentVolume>> volumesByClass) {}
