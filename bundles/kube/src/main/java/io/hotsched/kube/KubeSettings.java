package io.hotsched.kube;

import io.hotsched.core.settings.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Settings of the Kubernetes connection: Config Admin PID {@code io.hotsched.kube}. */
@ObjectClassDefinition(name = "hotsched Kubernetes connection")
public @interface KubeSettings {

    @AttributeDefinition(
            description =
                    "Requests in flight to the API server at most (the client's limit; fabric8 has no QPS limiter)")
    @Min(1)
    int maxConcurrentRequests() default 64;

    @AttributeDefinition(description = "API writes (binds, status updates, events) a second on average; 0: no limit")
    @Min(0)
    double qps() default 50;

    @AttributeDefinition(description = "API writes allowed in a burst above qps")
    @Min(1)
    int burst() default 100;

    @AttributeDefinition(description = "The component name on events (source.component)")
    String component() default "hotsched";

    @AttributeDefinition(description = "Print a table of the scheduler's pods once the queue settles")
    boolean report() default true;

    @AttributeDefinition(description = "Namespace of the leader-election Lease (with --leader-elect)")
    String leaseNamespace() default "kube-system";

    @AttributeDefinition(description = "Name of the leader-election Lease")
    String leaseName() default "hotsched";

    @AttributeDefinition(description = "Seconds a lease is valid without renewal")
    @Min(1)
    int leaseDurationSeconds() default 15;

    @AttributeDefinition(description = "Seconds the leader keeps trying to renew before it gives up")
    @Min(1)
    int renewDeadlineSeconds() default 10;

    @AttributeDefinition(description = "Seconds between attempts to acquire or renew")
    @Min(1)
    int retryPeriodSeconds() default 2;
}
