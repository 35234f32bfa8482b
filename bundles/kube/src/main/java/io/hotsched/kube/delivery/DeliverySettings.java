package io.hotsched.kube.delivery;

import io.hotsched.core.settings.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Settings of plugin delivery through SchedulerPlugin objects: Config Admin PID {@code io.hotsched.delivery}. */
@ObjectClassDefinition(name = "hotsched plugin delivery")
public @interface DeliverySettings {

    @AttributeDefinition(description = "PKCS12 or JKS keystore of the certificates trusted to sign plugin bundles")
    String truststore() default "";

    @AttributeDefinition(description = "PKCS12 or JKS")
    String truststoreType() default "PKCS12";

    @AttributeDefinition(description = "Password of the truststore (may be empty)")
    String truststorePassword() default "";

    @AttributeDefinition(
            description =
                    "Which signers may provide which bundles: name-or-prefix*=alias,alias; ... (empty: any trusted)")
    String signers() default "";

    @AttributeDefinition(description = "false: accept unsigned jars whose digest matches")
    boolean requireSignature() default true;

    /*
     * Read by the platform's deploy/ guard, from this file at each check; declared here so that the
     * file is checked as one and the shipped setting is not reported as unknown.
     */
    @AttributeDefinition(
            description =
                    "true: jars dropped into deploy/ must pass the same policy (trust roots, signers, requireSignature)")
    boolean verifyDeploy() default false;

    @AttributeDefinition(description = "Seconds a download may take in all")
    @Min(1)
    int downloadTimeoutSeconds() default 30;

    @AttributeDefinition(description = "Bytes a bundle jar may have at most")
    @Min(1)
    long maxBundleBytes() default 64L * 1024 * 1024;

    @AttributeDefinition(
            description = "PKCS12 or JKS keystore of the CA certificates https downloads trust (empty: the JDK's)")
    String downloadTruststore() default "";

    @AttributeDefinition(description = "Password of the download truststore (may be empty)")
    String downloadTruststorePassword() default "";

    @AttributeDefinition(description = "Seconds to wait for a delivered bundle to be installed and started")
    @Min(1)
    int installTimeoutSeconds() default 30;

    @AttributeDefinition(description = "This replica's name in status (empty: hotsched.replica, POD_NAME, HOSTNAME)")
    String replica() default "";
}
