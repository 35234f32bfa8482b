package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.Plugin;
import org.osgi.annotation.versioning.ConsumerType;

/** A plugin that transforms what an extension point sees. */
@ConsumerType
public interface SchedulingTransformer extends Plugin {}
