package io.hotsched.kube.serving;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Delegated authentication and authorization as kube-scheduler's secure port does them: a
 * {@code TokenReview} per bearer token and a {@code SubjectAccessReview} per user, verb and path,
 * each answer kept for 10 s (upstream's cache times), so a scrape every few seconds costs the API
 * server nothing after the first.
 */
public final class ApiServerReviewer implements Reviewer {

    private static final long TTL_NANOS = Duration.ofSeconds(10).toNanos();

    private record Kept<T>(T value, long until) {}

    private final KubernetesClient client;
    private final LongSupplier clock;
    private final Map<String, Kept<User>> users = new ConcurrentHashMap<>();
    private final Map<String, Kept<Boolean>> decisions = new ConcurrentHashMap<>();

    public ApiServerReviewer(KubernetesClient client) {
        this(client, System::nanoTime);
    }

    ApiServerReviewer(KubernetesClient client, LongSupplier clock) {
        this.client = client;
        this.clock = clock;
    }

    @Override
    public User authenticate(String token) {
        Kept<User> k = users.get(token);
        long now = clock.getAsLong();
        if (k != null && now - k.until() < 0) {
            return k.value();
        }
        TokenReview review = client.resource(new TokenReviewBuilder()
                        .withNewSpec()
                        .withToken(token)
                        .endSpec()
                        .build())
                .create();
        User user = null;
        if (review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAuthenticated())) {
            var info = review.getStatus().getUser();
            user = new User(
                    info.getUsername(),
                    info.getUid() == null ? "" : info.getUid(),
                    info.getGroups() == null ? List.of() : List.copyOf(info.getGroups()));
        }
        users.put(token, new Kept<>(user, now + TTL_NANOS));
        return user;
    }

    @Override
    public boolean authorize(User user, String verb, String path) {
        String key = user.name() + "\u0000" + user.groups() + "\u0000" + verb + "\u0000" + path;
        Kept<Boolean> k = decisions.get(key);
        long now = clock.getAsLong();
        if (k != null && now - k.until() < 0) {
            return k.value();
        }
        SubjectAccessReview review = client.resource(new SubjectAccessReviewBuilder()
                        .withNewSpec()
                        .withUser(user.name())
                        .withUid(user.uid())
                        .withGroups(user.groups())
                        .withNewNonResourceAttributes()
                        .withPath(path)
                        .withVerb(verb)
                        .endNonResourceAttributes()
                        .endSpec()
                        .build())
                .create();
        boolean allowed = review.getStatus() != null
                && Boolean.TRUE.equals(review.getStatus().getAllowed());
        decisions.put(key, new Kept<>(allowed, now + TTL_NANOS));
        return allowed;
    }
}
