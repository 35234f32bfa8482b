package io.hotsched.kube.serving;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secure port's gate, as kube-scheduler's: the always-allowed paths pass; any other request is
 * authenticated by its bearer token (none: {@code system:anonymous}) and authorized for its verb
 * and path by the API server. An unknown token gets 401, a user without the right 403, each with
 * kube-apiserver's Status body.
 */
public final class DelegatedAuthFilter implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger(DelegatedAuthFilter.class);

    /** The name it is registered under on the whiteboard (the core waits for it). */
    public static final String NAME = "hotsched-delegated-auth";

    private final Reviewer reviewer;
    private final AlwaysAllowPaths alwaysAllow;

    public DelegatedAuthFilter(Reviewer reviewer, AlwaysAllowPaths alwaysAllow) {
        this.reviewer = reviewer;
        this.alwaysAllow = alwaysAllow;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String path = req.getRequestURI();
        if (alwaysAllow.allows(path)) {
            chain.doFilter(request, response);
            return;
        }
        String verb = req.getMethod().toLowerCase(Locale.ROOT);
        Reviewer.User user;
        boolean allowed;
        try {
            String token = bearer(req.getHeader("Authorization"));
            user = token == null ? Reviewer.User.ANONYMOUS : reviewer.authenticate(token);
            if (user == null) {
                status(resp, 401, "Unauthorized", "Unauthorized");
                return;
            }
            allowed = reviewer.authorize(user, verb, path);
        } catch (RuntimeException e) {
            LOG.warn("Cannot review a request for {} with the API server: {}", path, e.toString());
            status(resp, 500, "InternalError", "the API server could not review the request: " + e.getMessage());
            return;
        }
        if (!allowed) {
            status(
                    resp,
                    403,
                    "Forbidden",
                    "forbidden: User \"" + user.name() + "\" cannot " + verb + " path \"" + path + "\"");
            return;
        }
        chain.doFilter(request, response);
    }

    private static String bearer(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    private static void status(HttpServletResponse resp, int code, String reason, String message) throws IOException {
        String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\",\"reason\":\"" + reason
                + "\",\"details\":{},\"code\":" + code + "}\n";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        resp.setStatus(code);
        resp.setContentType("application/json");
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }
}
