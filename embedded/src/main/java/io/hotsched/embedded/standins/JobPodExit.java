package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Plays the kubelet's last step for a Job's pods, which run nothing: a Running pod's containers
 * exit at once, with the code in the pod's {@value #EXIT_CODE} annotation (from the Job's template;
 * 0 when absent), and the pod becomes Succeeded (0) or Failed (anything else), its containers
 * terminated with reason Completed or Error, and Ready False with reason PodCompleted.
 */
final class JobPodExit {

    static final String EXIT_CODE = "hotsched.io/exit-code";

    private JobPodExit() {}

    static int exitCode(Pod p) {
        String v = p.getMetadata().getAnnotations() == null
                ? null
                : p.getMetadata().getAnnotations().get(EXIT_CODE);
        try {
            return v == null ? 0 : Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "pod " + Ownership.key(p) + ": annotation " + EXIT_CODE + " '" + v + "' is not a number");
        }
    }

    static void exit(KubernetesClient client, Pod pod) {
        int code;
        try {
            code = exitCode(pod);
        } catch (IllegalArgumentException e) {
            code = 1;
        }
        int exit = code;
        String now = Conditions.now();
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .editStatus(p -> {
                    PodStatus s = p.getStatus() == null ? new PodStatus() : p.getStatus();
                    s.setPhase(exit == 0 ? "Succeeded" : "Failed");
                    List<ContainerStatus> containers = new ArrayList<>();
                    for (Container c : p.getSpec().getContainers()) {
                        containers.add(new ContainerStatusBuilder()
                                .withName(c.getName())
                                .withImage(c.getImage())
                                .withReady(false)
                                .withRestartCount(0)
                                .withNewState()
                                .withNewTerminated()
                                .withExitCode(exit)
                                .withReason(exit == 0 ? "Completed" : "Error")
                                .withStartedAt(s.getStartTime())
                                .withFinishedAt(now)
                                .endTerminated()
                                .endState()
                                .build());
                    }
                    s.setContainerStatuses(containers);
                    List<PodCondition> conditions = s.getConditions() == null ? new ArrayList<>() : s.getConditions();
                    for (PodCondition c : conditions) {
                        if ("Ready".equals(c.getType()) || "ContainersReady".equals(c.getType())) {
                            c.setStatus("False");
                            c.setReason("PodCompleted");
                        }
                    }
                    s.setConditions(conditions);
                    p.setStatus(s);
                    return p;
                });
    }
}
