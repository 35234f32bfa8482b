package io.hotsched.core.runtime;

/** A plugin threw: the message names the plugin and extension point; the cause is the plugin's exception. */
final class PluginFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    PluginFailure(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
