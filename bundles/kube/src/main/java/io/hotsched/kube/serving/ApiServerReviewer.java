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
import java.util.function.Supplier;

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
        return kept(users, token, () -> {
            TokenReview review = client.resource(new TokenReviewBuilder()
                            .withNewSpec()
                            .withToken(token)
                            .endSpec()
                            .build())
                    .create();
            if (review.getStatus() == null
                    || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())) {
                return null;
            }
            var info = review.getStatus().getUser();
            return new User(
                    info.getUsername(),
                    info.getUid() == null ? "" : info.getUid(),
                    info.getGroups() == null ? List.of() : List.copyOf(info.getGroups()));
        });
    }

    @Override
    public boolean authorize(User user, String verb, String path) {
        String key = user.name() + "\u0000" + user.groups() + "\u0000" + verb + "\u0000" + path;
        return kept(decisions, key, () -> {
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
            return review.getStatus() != null
                    && Boolean.TRUE.equals(review.getStatus().getAllowed());
        });
    }

    /** The answer kept for {@code key} if it is younger than the TTL, else {@code ask}'s, kept. */
    private <V> V kept(Map<String, Kept<V>> cache, String key, Supplier<V> ask) {
        long now = clock.getAsLong();
        Kept<V> k = cache.get(key);
        if (k != null && now - k.until() < 0) {
            return k.value();
        }
        V value = ask.get();
        cache.put(key, new Kept<>(value, now + TTL_NANOS));
        return value;
    }
}
