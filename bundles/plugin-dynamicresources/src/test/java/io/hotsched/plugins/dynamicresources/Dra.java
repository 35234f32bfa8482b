package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.hotsched.testing.DeviceResources;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** DRA objects for the plugin's tests. */
final class Dra {

    static final String DRIVER = "gpu.example.com";

    private Dra() {}

    static DeviceClass deviceClass(String name, String... selectors) {
        return new DeviceClassBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid("class-" + name)
                .endMetadata()
                .withNewSpec()
                .withSelectors(selectors(selectors))
                .endSpec()
                .build();
    }

    private static List<DeviceSelector> selectors(String... expressions) {
        return Arrays.stream(expressions)
                .map(e -> new DeviceSelectorBuilder()
                        .withNewCel()
                        .withExpression(e)
                        .endCel()
                        .build())
                .toList();
    }

    static Device device(String name, Object... attributes) {
        Map<String, DeviceAttribute> a = new LinkedHashMap<>();
        for (int i = 0; i < attributes.length; i += 2) {
            Object v = attributes[i + 1];
            DeviceAttributeBuilder b = new DeviceAttributeBuilder();
            if (v instanceof String s) {
                b.withString(s);
            } else if (v instanceof Long l) {
                b.withInt(l);
            } else if (v instanceof Integer n) {
                b.withInt(n.longValue());
            } else {
                b.withBool((Boolean) v);
            }
            a.put((String) attributes[i], b.build());
        }
        return new DeviceBuilder()
                .withName(name)
                .withAttributes(a)
                .withCapacity(Map.of(
                        "memory",
                        new DeviceCapacityBuilder()
                                .withValue(new Quantity("16Gi"))
                                .build()))
                .build();
    }

    static ResourceSlice slice(String node, Device... devices) {
        return DeviceResources.slice(node, DRIVER, devices);
    }

    static DeviceRequest exactly(String name, String className, long count, String... selectors) {
        return new DeviceRequestBuilder()
                .withName(name)
                .withNewExactly()
                .withDeviceClassName(className)
                .withAllocationMode("ExactCount")
                .withCount(count)
                .withSelectors(selectors(selectors))
                .endExactly()
                .build();
    }

    static ResourceClaim claim(String name, DeviceRequest... requests) {
        return new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .withUid("claim-" + name)
                .withResourceVersion("1")
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .withRequests(List.of(requests))
                .endDevices()
                .endSpec()
                .build();
    }

    static Pod pod(String name, String... claims) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .withUid("pod-" + name)
                .endMetadata()
                .withNewSpec()
                .endSpec();
        for (String c : claims) {
            b.editSpec()
                    .addNewResourceClaim()
                    .withName(c)
                    .withResourceClaimName(c)
                    .endResourceClaim()
                    .endSpec();
        }
        return b.build();
    }
}
