package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;

/** DRA objects as a driver and a user write them: a class per driver, a one-device template, a node's slice. */
public final class DeviceResources {

    private DeviceResources() {}

    /** The first field requirement of an allocated claim's node selector: where its devices are. */
    public static NodeSelectorRequirement allocatedNodeField(ResourceClaim claim) {
        return claim.getStatus()
                .getAllocation()
                .getNodeSelector()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchFields()
                .get(0);
    }

    /** The DeviceClass named after {@code driver}, selecting that driver's devices. */
    public static DeviceClass deviceClass(String driver) {
        return new DeviceClassBuilder()
                .withNewMetadata()
                .withName(driver)
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression("device.driver == '" + driver + "'")
                .endCel()
                .endSelector()
                .endSpec()
                .build();
    }

    /** A template whose claims ask for one device of {@code className} in request "gpu". */
    public static ResourceClaimTemplate oneDevice(String name, String namespace, String className) {
        return new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withNewSpec()
                .withNewSpec()
                .withNewDevices()
                .addNewRequest()
                .withName("gpu")
                .withNewExactly()
                .withDeviceClassName(className)
                .endExactly()
                .endRequest()
                .endDevices()
                .endSpec()
                .endSpec()
                .build();
    }

    /** {@code node}'s slice of {@code driver}'s devices: pool named after the node, generation 1, one slice. */
    public static ResourceSlice slice(String node, String driver, Device... devices) {
        return new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(node + "-" + driver)
                .endMetadata()
                .withNewSpec()
                .withDriver(driver)
                .withNodeName(node)
                .withNewPool()
                .withName(node)
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .withDevices(devices)
                .endSpec()
                .build();
    }

    /** Devices without attributes, {@code prefix}0 .. {@code prefix}(count-1). */
    public static Device[] devices(String prefix, int count) {
        Device[] out = new Device[count];
        for (int i = 0; i < count; i++) {
            out[i] = new DeviceBuilder().withName(prefix + i).build();
        }
        return out;
    }
}
