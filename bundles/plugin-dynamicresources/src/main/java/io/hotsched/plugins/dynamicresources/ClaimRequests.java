package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.hotsched.api.framework.ObjectLister;
import java.util.ArrayList;
import java.util.List;

/**
 * A claim to allocate, read once per attempt: each request with its alternatives (one, or the
 * {@code firstAvailable} list in order of preference) and their classes, and the claim's
 * constraints.
 */
record ClaimRequests(ResourceClaim claim, List<List<DeviceRequest>> requests, List<DeviceConstraint> constraints) {

    /** Why the claim cannot be allocated now, in upstream's words, before any node is looked at. */
    static final class Unusable extends Exception {
        final boolean error;

        Unusable(String message, boolean error) {
            super(message);
            this.error = error;
        }
    }

    static ClaimRequests of(ResourceClaim claim, ObjectLister<DeviceClass> classes) throws Unusable {
        DeviceClaim spec = claim.getSpec() == null ? null : claim.getSpec().getDevices();
        List<List<DeviceRequest>> requests = new ArrayList<>();
        if (spec != null && spec.getRequests() != null) {
            for (io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest r : spec.getRequests()) {
                requests.add(alternatives(claim, r, classes));
            }
        }
        List<DeviceConstraint> constraints =
                spec == null || spec.getConstraints() == null ? List.of() : spec.getConstraints();
        return new ClaimRequests(claim, requests, constraints);
    }

    private static void countMode(ResourceClaim claim, String request, String mode) throws Unusable {
        if (mode != null && !mode.isEmpty() && !mode.equals("All") && !mode.equals("ExactCount")) {
            throw new Unusable(
                    "claim " + Allocator.key(claim) + ", request " + request + ": unsupported count mode " + mode,
                    true);
        }
    }

    private static List<DeviceRequest> alternatives(
            ResourceClaim claim,
            io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest r,
            ObjectLister<DeviceClass> classes)
            throws Unusable {
        ExactDeviceRequest e = r.getExactly();
        if (e != null) {
            countMode(claim, r.getName(), e.getAllocationMode());
            DeviceClass c = deviceClass(classes, e.getDeviceClassName(), r.getName());
            return List.of(new DeviceRequest(
                    r.getName(),
                    c,
                    e.getSelectors() == null ? List.of() : e.getSelectors(),
                    "All".equals(e.getAllocationMode()),
                    e.getCount() == null ? 1 : e.getCount(),
                    Boolean.TRUE.equals(e.getAdminAccess()),
                    e.getTolerations() == null ? List.of() : e.getTolerations()));
        }
        if (r.getFirstAvailable() == null || r.getFirstAvailable().isEmpty()) {
            throw new Unusable("request " + r.getName() + ": unsupported request type", true);
        }
        List<DeviceRequest> out = new ArrayList<>();
        for (DeviceSubRequest s : r.getFirstAvailable()) {
            String name = r.getName() + "/" + s.getName();
            countMode(claim, name, s.getAllocationMode());
            DeviceClass c = deviceClass(classes, s.getDeviceClassName(), name);
            out.add(new DeviceRequest(
                    name,
                    c,
                    s.getSelectors() == null ? List.of() : s.getSelectors(),
                    "All".equals(s.getAllocationMode()),
                    s.getCount() == null ? 1 : s.getCount(),
                    false,
                    s.getTolerations() == null ? List.of() : s.getTolerations()));
        }
        return out;
    }

    private static DeviceClass deviceClass(ObjectLister<DeviceClass> classes, String name, String request)
            throws Unusable {
        if (name == null || name.isEmpty()) {
            throw new Unusable("request " + request + ": unsupported request type", true);
        }
        DeviceClass c = classes.get(name);
        if (c == null) {
            // the pod waits in the unschedulable queue until a DeviceClass event
            throw new Unusable("request " + request + ": device class " + name + " does not exist", false);
        }
        return c;
    }
}
