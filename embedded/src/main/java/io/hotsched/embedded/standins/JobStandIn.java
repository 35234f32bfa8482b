package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plays the Job controller for non-indexed Jobs: up to {@code parallelism} active pods until
 * {@code completions} pods succeeded (without completions: until one succeeded and the others
 * ended), labelled as upstream labels them; the Job fails once more than {@code backoffLimit} pods
 * failed; {@code suspend} deletes the active pods. Status counts, {@code startTime},
 * {@code completionTime} and upstream's conditions (SuccessCriteriaMet and Complete, or
 * FailureTarget and Failed; Suspended). Pods end as {@link JobPodExit} describes. Indexed
 * completion, pod failure and success policies and deadlines are not played.
 */
final class JobStandIn extends OwnerController<Job, Pod> {

    private static final int BURST = 500;

    JobStandIn(KubernetesClient client, LazyInformer<Pod> pods) {
        super(client, Job.class, "Job", pods);
    }

    @Override
    void sync(Job job, List<Pod> owned) {
        int parallelism =
                job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
        Integer completions = job.getSpec().getCompletions();
        if (completions == null && job.getSpec().getParallelism() == null) {
            completions = 1;
        }
        int backoffLimit =
                job.getSpec().getBackoffLimit() == null ? 6 : job.getSpec().getBackoffLimit();
        boolean suspended = Boolean.TRUE.equals(job.getSpec().getSuspend());
        List<Pod> active = owned.stream().filter(PodStates::active).toList();
        int succeeded = (int) owned.stream()
                .filter(p -> "Succeeded".equals(PodStates.phase(p)))
                .count();
        int failed = (int)
                owned.stream().filter(p -> "Failed".equals(PodStates.phase(p))).count();
        boolean finishedBefore = finished(job);
        for (Pod p : active) {
            if ("Running".equals(PodStates.phase(p))) {
                JobPodExit.exit(client, p);
            }
        }
        boolean complete = completions != null ? succeeded >= completions : succeeded > 0 && active.isEmpty();
        boolean failedJob = failed > backoffLimit;
        if (finishedBefore || complete || failedJob || suspended) {
            active.forEach(p -> delete(job, p));
        } else {
            int wanted = completions == null
                    ? (succeeded > 0 ? 0 : parallelism)
                    : Math.min(parallelism, completions - succeeded);
            for (int i = active.size(); i < Math.min(wanted, active.size() + BURST); i++) {
                create(job, PodTemplates.generated(job, job.getSpec().getTemplate(), labels(job)));
            }
            if (active.size() > wanted) {
                active.subList(0, active.size() - wanted).forEach(p -> delete(job, p));
            }
        }
        JobStatus status = status(job, active, succeeded, failed, complete, failedJob, suspended);
        Job next = copy(job);
        next.setStatus(status);
        writeStatus(job, next, job.getStatus(), status);
    }

    private static Map<String, String> labels(Job job) {
        String uid = job.getMetadata().getUid();
        String name = job.getMetadata().getName();
        return Map.of(
                "batch.kubernetes.io/controller-uid", uid,
                "batch.kubernetes.io/job-name", name,
                "controller-uid", uid,
                "job-name", name);
    }

    private static boolean finished(Job job) {
        return job.getStatus() != null
                && job.getStatus().getConditions() != null
                && job.getStatus().getConditions().stream()
                        .anyMatch(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
                                && "True".equals(c.getStatus()));
    }

    private static JobStatus status(
            Job job,
            List<Pod> active,
            int succeeded,
            int failed,
            boolean complete,
            boolean failedJob,
            boolean suspended) {
        JobStatus old = job.getStatus() == null ? new JobStatus() : job.getStatus();
        List<JobCondition> conditions = new ArrayList<>(old.getConditions() == null ? List.of() : old.getConditions());
        String completionTime = old.getCompletionTime();
        if (!finished(job)) {
            if (complete) {
                String message = "Reached expected number of succeeded pods";
                conditions.add(condition("SuccessCriteriaMet", "CompletionsReached", message));
                conditions.add(condition("Complete", "CompletionsReached", message));
                completionTime = Conditions.now();
            } else if (failedJob) {
                String message = "Job has reached the specified backoff limit";
                conditions.add(condition("FailureTarget", "BackoffLimitExceeded", message));
                conditions.add(condition("Failed", "BackoffLimitExceeded", message));
            }
        }
        boolean wasSuspended = conditions.stream().anyMatch(c -> "Suspended".equals(c.getType()));
        if (suspended && !wasSuspended) {
            conditions.add(condition("Suspended", "JobSuspended", "Job suspended"));
        } else if (!suspended && wasSuspended) {
            conditions.removeIf(c -> "Suspended".equals(c.getType()));
        }
        boolean done = finished(job) || complete || failedJob;
        return new JobStatusBuilder()
                .withStartTime(old.getStartTime() != null || suspended ? old.getStartTime() : Conditions.now())
                .withCompletionTime(completionTime)
                .withActive(done ? 0 : active.size())
                .withReady((int)
                        (done ? 0 : active.stream().filter(PodStates::ready).count()))
                .withSucceeded(succeeded)
                .withFailed(failed)
                .withTerminating(0)
                .withNewUncountedTerminatedPods()
                .endUncountedTerminatedPods()
                .withConditions(conditions)
                .build();
    }

    private static JobCondition condition(String type, String reason, String message) {
        String now = Conditions.now();
        return new JobConditionBuilder()
                .withType(type)
                .withStatus("True")
                .withReason(reason)
                .withMessage(message)
                .withLastProbeTime(now)
                .withLastTransitionTime(now)
                .build();
    }
}
