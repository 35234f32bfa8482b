package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.List;

/**
 * One way to satisfy a claim's request: the request itself ({@code exactly}), or one of its
 * {@code firstAvailable} subrequests, named {@code request/subrequest} as allocation results name
 * it. {@code count} is 0 for allocationMode All.
 */
record DeviceRequest(
        String name,
        DeviceClass deviceClass,
        List<DeviceSelector> selectors,
        boolean all,
        long count,
        boolean adminAccess,
        List<DeviceToleration> tolerations) {

    /** The request name before any {@code /subrequest}: what a constraint's {@code requests} name. */
    String parent() {
        int slash = name.indexOf('/');
        return slash < 0 ? name : name.substring(0, slash);
    }
}
