package io.hotsched.core.admin;

/**
 * One scheduling profile.
 *
 * @param state {@code ready}, or {@code paused: ...} with what it waits for or what is wrong
 * @param plugins how many plugin instances its framework runs (0 when paused)
 * @param pinned scheduling attempts running on its framework now
 */
public record ProfileView(String name, String state, int plugins, int pinned) {}
