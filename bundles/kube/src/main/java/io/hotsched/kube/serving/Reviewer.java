package io.hotsched.kube.serving;

import java.util.List;

/** Who a bearer token is, and whether they may do what they ask: the API server's answers. */
public interface Reviewer {

    /** An authenticated (or anonymous) user. */
    record User(String name, String uid, List<String> groups) {
        public static final User ANONYMOUS = new User("system:anonymous", "", List.of("system:unauthenticated"));
    }

    /** The user the token names, or null when the API server does not know it. */
    User authenticate(String token);

    /** Whether {@code user} may {@code verb} the non-resource {@code path}. */
    boolean authorize(User user, String verb, String path);
}
