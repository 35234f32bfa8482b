package io.hotsched.core.admin;

import java.util.List;

/**
 * One registered plugin factory.
 *
 * @param state {@code active} (serves its name), {@code standby} (another version serves), or
 *     {@code quarantined}
 * @param points the extension points it serves in the profiles that use it
 * @param profiles the profiles whose framework runs it now
 * @param failures failed attempts counted against it; {@code lastError} the latest
 */
public record PluginView(
        String name,
        String bundle,
        String version,
        String state,
        List<String> points,
        List<String> profiles,
        long failures,
        String lastError) {}
