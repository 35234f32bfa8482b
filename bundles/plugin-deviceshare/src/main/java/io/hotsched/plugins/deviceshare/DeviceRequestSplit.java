package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.LabelSelector;
import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many RDMA or FPGA devices a request takes, and what each gives: whole hundreds are whole
 * devices; the hint's {@code ApplyForAll} takes every (matching) device, {@code RequestsAsCount}
 * reads the amount as a number of devices; otherwise one device.
 */
public record DeviceRequestSplit(Status status, int count, Map<String, BigDecimal> perDevice) {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** The device-allocate hint of one type: {@code selector}, {@code allocateStrategy}, {@code exclusivePolicy}. */
    public record Hint(
            LabelSelector selector, String allocateStrategy, String exclusivePolicy, String requiredTopologyScope) {}

    public static DeviceRequestSplit of(
            String type, String resource, BigDecimal value, Hint hint, List<DeviceEntry> devices) {
        if (value.compareTo(HUNDRED) > 0 && value.remainder(HUNDRED).signum() == 0) {
            return new DeviceRequestSplit(
                    Status.SUCCESS, value.divide(HUNDRED).intValueExact(), Map.of(resource, HUNDRED));
        }
        if (hint != null && "ApplyForAll".equals(hint.allocateStrategy())) {
            int n = 0;
            for (DeviceEntry d : devices) {
                if (d.type().equals(type)
                        && (hint.selector() == null || hint.selector().matches(d.labels()))) {
                    n++;
                }
            }
            if (n == 0) {
                return new DeviceRequestSplit(Status.unresolvable("Insufficient " + type + " devices"), 0, null);
            }
            return new DeviceRequestSplit(Status.SUCCESS, n, new TreeMap<>(Map.of(resource, value)));
        }
        if (hint != null && "RequestsAsCount".equals(hint.allocateStrategy())) {
            BigDecimal each = "DeviceLevel".equals(hint.exclusivePolicy()) ? HUNDRED : BigDecimal.ONE;
            return new DeviceRequestSplit(Status.SUCCESS, value.intValueExact(), Map.of(resource, each));
        }
        return new DeviceRequestSplit(Status.SUCCESS, 1, new TreeMap<>(Map.of(resource, value)));
    }
}
