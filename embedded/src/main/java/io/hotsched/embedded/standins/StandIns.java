package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The workload controllers the embedded API server plays, as clients of it over HTTP (as
 * kube-controller-manager is a client of kube-apiserver). Each watches its own kind; the informers
 * of pods, nodes and ReplicaSets they read are shared and run only while some workload object exists.
 */
public final class StandIns implements AutoCloseable {

    private final List<AutoCloseable> running = new ArrayList<>();

    private StandIns() {}

    /** Starts the controllers among {@code on}; returns once each has listed its kind. */
    public static StandIns start(KubernetesClient client, Set<StandIn> on) {
        StandIns s = new StandIns();
        LazyInformer<Pod> pods = new LazyInformer<>(client, Pod.class);
        LazyInformer<ReplicaSet> replicaSets = new LazyInformer<>(client, ReplicaSet.class);
        LazyInformer<Node> nodes = new LazyInformer<>(client, Node.class);
        List<OwnerController<?, ?>> controllers = new ArrayList<>();
        if (on.contains(StandIn.DEPLOYMENT)) {
            controllers.add(new DeploymentStandIn(client, replicaSets));
        }
        if (on.contains(StandIn.REPLICASET)) {
            controllers.add(new ReplicaSetStandIn(client, pods));
        }
        if (on.contains(StandIn.JOB)) {
            controllers.add(new JobStandIn(client, pods));
        }
        if (on.contains(StandIn.STATEFULSET)) {
            controllers.add(new StatefulSetStandIn(client, pods));
        }
        if (on.contains(StandIn.DAEMONSET)) {
            controllers.add(new DaemonSetStandIn(client, pods, nodes));
        }
        try {
            for (OwnerController<?, ?> c : controllers) {
                c.start();
                s.running.add(c);
            }
            if (on.contains(StandIn.GARBAGE_COLLECTOR)) {
                GarbageCollector gc = new GarbageCollector(client);
                gc.start();
                s.running.add(gc);
            }
            if (on.contains(StandIn.PERSISTENT_VOLUME)) {
                VolumeBinderStandIn binder = new VolumeBinderStandIn(client);
                s.running.add(binder);
                binder.start();
            }
            if (on.contains(StandIn.VOLUME_PROVISIONER)) {
                ProvisionerStandIn provisioner = new ProvisionerStandIn(client);
                s.running.add(provisioner);
                provisioner.start();
            }
            if (on.contains(StandIn.DISRUPTION)) {
                DisruptionStandIn disruption = new DisruptionStandIn(client, pods);
                s.running.add(disruption);
                disruption.start();
            }
            if (on.contains(StandIn.RESOURCE_CLAIM)) {
                ResourceClaimStandIn claims = new ResourceClaimStandIn(client, pods);
                s.running.add(claims);
                claims.start();
            }
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        s.running.add(pods);
        s.running.add(replicaSets);
        s.running.add(nodes);
        return s;
    }

    @Override
    public void close() {
        for (AutoCloseable c : running) {
            try {
                c.close();
            } catch (Exception e) {
                // stopping: nothing more to do for it
            }
        }
        running.clear();
    }
}
