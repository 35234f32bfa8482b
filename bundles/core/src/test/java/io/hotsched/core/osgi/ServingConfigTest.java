package io.hotsched.core.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServingConfigTest {

    @Test
    void plainHttpOnTheMetricsAddress() {
        Map<String, Object> c = ServingConfig.of("127.0.0.1:10259", null);
        assertEquals(true, c.get("org.apache.felix.http.enable"));
        assertEquals(false, c.get("org.apache.felix.https.enable"));
        assertEquals("127.0.0.1", c.get("org.apache.felix.http.host"));
        assertEquals(10259, c.get("org.osgi.service.http.port"));
    }

    @Test
    void anEmptyAddressServesNothing() {
        Map<String, Object> c = ServingConfig.of(" ", null);
        assertEquals(false, c.get("org.apache.felix.http.enable"));
        assertEquals(false, c.get("org.apache.felix.https.enable"));
    }

    @Test
    void secureServingReplacesPlainHttp() {
        Map<String, Object> c = ServingConfig.of(
                "127.0.0.1:10259", new ServingConfig.Secure("0.0.0.0", 10259, "/home/data/serving.p12", "pw"));
        assertEquals(false, c.get("org.apache.felix.http.enable"));
        assertEquals(true, c.get("org.apache.felix.https.enable"));
        assertEquals("0.0.0.0", c.get("org.apache.felix.http.host"));
        assertEquals(10259, c.get("org.osgi.service.http.port.secure"));
        assertEquals("/home/data/serving.p12", c.get("org.apache.felix.https.keystore"));
    }

    @Test
    void secureServingIsOffWithoutItsPort() {
        assertEquals(null, ServingConfig.Secure.fromProperties(name -> null));
        assertEquals(
                8443,
                ServingConfig.Secure.fromProperties(name -> name.equals("hotsched.securePort") ? "8443" : "x")
                        .port());
    }

    @Test
    void badAddressesAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServingConfig.parse("10259"));
        assertTrue(e.getMessage().contains("\"10259\" is not host:port"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ServingConfig.parse("localhost:http"));
        assertTrue(e.getMessage().contains("port must be a number"), e.getMessage());
    }
}
