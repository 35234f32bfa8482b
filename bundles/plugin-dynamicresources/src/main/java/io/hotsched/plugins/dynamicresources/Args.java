package io.hotsched.plugins.dynamicresources;

import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.PluginArgs;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DynamicResourcesArgs (kubescheduler.config.k8s.io/v1) at v1.36, where its gates
 * (DRASchedulerFilterTimeout, DRADeviceBindingConditions, DRAResourceClaimDeviceStatus) are on:
 * {@code filterTimeout}, how long Filter may search one node for devices (default 10s, 0 turns the
 * limit off, not negative), and {@code bindingTimeout} (default 10m, at least 1s), which bounds how
 * long PreBind waits for a device's binding conditions.
 */
record Args(Duration filterTimeout, Duration bindingTimeout) {

    static final Duration DEFAULT_FILTER_TIMEOUT = Duration.ofSeconds(10);
    static final Duration DEFAULT_BINDING_TIMEOUT = Duration.ofMinutes(10);

    private static final Pattern GO_DURATION = Pattern.compile("(-?)((?:\\d+(?:\\.\\d+)?(?:ns|us|µs|ms|s|m|h))+|0)");
    private static final Pattern GO_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    /** The v1 fields as the configuration gives them (Go durations). */
    public static final class V1 {
        public String filterTimeout;
        public String bindingTimeout;
    }

    static Args parse(PluginArgs args) throws InvalidArgsException {
        V1 v = args.as(V1.class);
        Duration filter = v.filterTimeout == null ? DEFAULT_FILTER_TIMEOUT : duration("filterTimeout", v.filterTimeout);
        if (filter.isNegative()) {
            throw new InvalidArgsException("filterTimeout", v.filterTimeout, "must be zero or positive");
        }
        Duration binding =
                v.bindingTimeout == null ? DEFAULT_BINDING_TIMEOUT : duration("bindingTimeout", v.bindingTimeout);
        if (binding.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidArgsException("bindingTimeout", v.bindingTimeout, "must be at least 1 second");
        }
        return new Args(filter, binding);
    }

    private static Duration duration(String field, String text) throws InvalidArgsException {
        Matcher whole = GO_DURATION.matcher(text.trim());
        if (!whole.matches()) {
            throw new InvalidArgsException(field, text, "a duration such as 10s, 1m30s or 500ms");
        }
        double nanos = 0;
        Matcher unit = GO_UNIT.matcher(whole.group(2));
        while (unit.find()) {
            double n = Double.parseDouble(unit.group(1));
            nanos += n
                    * switch (unit.group(2)) {
                        case "h" -> 3.6e12;
                        case "m" -> 6e10;
                        case "s" -> 1e9;
                        case "ms" -> 1e6;
                        case "us", "µs" -> 1e3;
                        default -> 1;
                    };
        }
        Duration d = Duration.ofNanos(Math.round(nanos));
        return whole.group(1).isEmpty() ? d : d.negated();
    }
}
