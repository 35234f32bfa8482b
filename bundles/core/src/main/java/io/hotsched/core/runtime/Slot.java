package io.hotsched.core.runtime;

/** A plugin at one extension point: the interface it is called through, and its instance. */
record Slot<T>(String name, T plugin, PluginInstance instance) {}
