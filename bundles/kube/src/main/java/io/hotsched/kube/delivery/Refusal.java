package io.hotsched.kube.delivery;

/** Why a replica does not install a SchedulerPlugin's bundle, in words its status and Event carry. */
public final class Refusal extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean passing;

    public Refusal(String reason) {
        this(reason, false);
    }

    /** @param passing the cause may go away by itself (an unreachable URL): the replica tries again later */
    public Refusal(String reason, boolean passing) {
        super(reason, null, false, false);
        this.passing = passing;
    }

    public boolean passing() {
        return passing;
    }
}
