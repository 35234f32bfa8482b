package io.hotsched.embedded;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The query parameters of a write that field management reads ({@code fieldManager}, {@code force})
 * and {@code dryRun}, checked as kube-apiserver checks its CreateOptions, UpdateOptions and
 * PatchOptions.
 */
record WriteOptions(String fieldManager, String force, String dryRun) {

    private static final int FIELD_MANAGER_MAX_LENGTH = 128;

    static WriteOptions of(String path) {
        String manager = null;
        String force = null;
        String dryRun = null;
        int q = path.indexOf('?');
        if (q >= 0) {
            for (String pair : path.substring(q + 1).split("&")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                if (key.equals("fieldManager")) {
                    manager = value;
                } else if (key.equals("force")) {
                    force = value;
                } else if (key.equals("dryRun")) {
                    dryRun = value;
                }
            }
        }
        return new WriteOptions(manager == null ? "" : manager, force, dryRun);
    }

    /** Whether the write is to be answered and not stored ({@code dryRun=All}). */
    boolean dryRunOnly() {
        return "All".equals(dryRun);
    }

    boolean forced() {
        return "true".equals(force);
    }

    /**
     * The 422 kube-apiserver gives these options, or null; {@code kind} is {@code CreateOptions},
     * {@code UpdateOptions} or {@code PatchOptions}, {@code apply} for a server-side apply
     * ({@code force} belongs to apply only).
     */
    io.fabric8.mockwebserver.http.MockResponse refusal(String kind, boolean apply) {
        List<FieldErrors.Cause> causes = new ArrayList<>();
        if (kind.equals("PatchOptions") && !apply && force != null) {
            causes.add(FieldErrors.forbidden("force", "may not be specified for non-apply patch"));
        }
        if (apply && fieldManager.isEmpty()) {
            causes.add(FieldErrors.required("fieldManager", "is required for apply patch"));
        }
        if (fieldManager.length() > FIELD_MANAGER_MAX_LENGTH) {
            causes.add(FieldErrors.tooLong("fieldManager", FIELD_MANAGER_MAX_LENGTH));
        }
        for (int i = 0; i < fieldManager.length(); i++) {
            char c = fieldManager.charAt(i);
            if (Character.isISOControl(c)) {
                causes.add(FieldErrors.invalid(
                        "fieldManager",
                        fieldManager,
                        String.format("invalid character U+%04X (at position %d)", (int) c, i)));
            }
        }
        if (dryRun != null && !dryRunOnly()) {
            causes.add(FieldErrors.notSupported("dryRun", dryRun, List.of("All")));
        }
        if (causes.isEmpty()) {
            return null;
        }
        return FieldErrors.invalidStatus("meta.k8s.io", kind, "", causes);
    }

    /** The manager of a write: the {@code fieldManager} asked for, else the client's name from its User-Agent. */
    String managerOr(String userAgent) {
        if (!fieldManager.isEmpty()) {
            return fieldManager;
        }
        if (userAgent == null) {
            return "";
        }
        int slash = userAgent.indexOf('/');
        String name = slash < 0 ? userAgent : userAgent.substring(0, slash);
        return name.length() > FIELD_MANAGER_MAX_LENGTH ? name.substring(0, FIELD_MANAGER_MAX_LENGTH) : name;
    }
}
