package io.hotsched.core.config;

import java.util.Map;

/**
 * The {@code pluginConfig} entry of one plugin: its raw arguments, and where each argument field
 * stands in the file so that an invalid value can be reported with its line.
 *
 * @param args the arguments (maps, lists, strings, numbers, booleans)
 * @param lines the line of each field, by its path inside args ({@code scoringStrategy.type})
 * @param line the line of the entry
 * @param path the entry's path ({@code profiles[0].pluginConfig[2]})
 */
public record PluginConfig(String name, Map<String, Object> args, Map<String, Integer> lines, int line, String path) {}
