package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A pod create over HTTP, answered as kube-apiserver answers it, with the index and without (both through the admitted-create path). */
class PodCreateTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer(true);

    @RegisterExtension
    static final ApiServer STOCK = new ApiServer();

    private static HttpResponse<String> post(ApiServer api, String namespace, String json) throws Exception {
        return Http.send(
                api.server().url(),
                "POST",
                "/api/v1/namespaces/" + namespace + "/pods",
                "application/json",
                json.getBytes(StandardCharsets.UTF_8),
                "application/json");
    }

    private static String pod(String metadata) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":" + metadata
                + ",\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"pause\"}]}}";
    }

    @Test
    void aCreatedPodGetsItsIdentityFromTheServer() throws Exception {
        HttpResponse<String> r =
                post(API, "default", pod("{\"name\":\"made\",\"deletionTimestamp\":\"2020-01-01T00:00:00Z\"}"));
        assertEquals(201, r.statusCode(), r.body());
        Pod p = Serialization.unmarshal(r.body(), Pod.class);
        assertEquals("default", p.getMetadata().getNamespace());
        assertEquals(1L, p.getMetadata().getGeneration());
        assertTrue(
                p.getMetadata().getUid().matches("[0-9a-f-]{36}"),
                p.getMetadata().getUid());
        assertTrue(p.getMetadata().getCreationTimestamp().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
        assertEquals(null, p.getMetadata().getDeletionTimestamp());
        Pod read = API.client().pods().inNamespace("default").withName("made").get();
        assertEquals(p.getMetadata().getResourceVersion(), read.getMetadata().getResourceVersion());
        assertEquals("default-scheduler", read.getSpec().getSchedulerName());
    }

    @Test
    void aBodyWithoutTypeTakesItFromTheUrl() throws Exception {
        HttpResponse<String> r = post(
                API,
                "default",
                "{\"metadata\":{\"name\":\"untyped\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"pause\"}]}}");
        assertEquals(201, r.statusCode(), r.body());
        Pod p = API.client().pods().inNamespace("default").withName("untyped").get();
        assertEquals("Pod", p.getKind());
        assertEquals("v1", p.getApiVersion());
    }

    @Test
    void generateNameGetsFiveCharactersAsOnKubeApiserver() throws Exception {
        Pod a = Serialization.unmarshal(
                post(API, "default", pod("{\"generateName\":\"web-\"}")).body(), Pod.class);
        Pod b = Serialization.unmarshal(
                post(API, "default", pod("{\"generateName\":\"web-\"}")).body(), Pod.class);
        assertTrue(
                a.getMetadata().getName().matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}"),
                a.getMetadata().getName());
        assertNotEquals(a.getMetadata().getName(), b.getMetadata().getName());
    }

    @Test
    void aTakenNameIsAlreadyExistsWithTheIndexOrWithout() throws Exception {
        for (ApiServer api : new ApiServer[] {API, STOCK}) {
            assertEquals(201, post(api, "default", pod("{\"name\":\"twice\"}")).statusCode());
            HttpResponse<String> again = post(api, "default", pod("{\"name\":\"twice\"}"));
            assertEquals(409, again.statusCode(), again.body());
            assertTrue(again.body().contains("\"reason\":\"AlreadyExists\""), again.body());
            assertTrue(again.body().contains("pods \\\"twice\\\" already exists"), again.body());
        }
    }

    @Test
    void aNamespaceOtherThanTheUrlsIsRefused() throws Exception {
        HttpResponse<String> r = post(API, "default", pod("{\"name\":\"elsewhere\",\"namespace\":\"other\"}"));
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(
                r.body()
                        .contains(
                                "the namespace of the object (other) does not match the namespace on the URL (default)"),
                r.body());
    }

    @Test
    void aPodWithoutNameOrGenerateNameIsInvalid() throws Exception {
        HttpResponse<String> r = post(API, "default", pod("{}"));
        assertEquals(422, r.statusCode(), r.body());
        assertTrue(r.body().contains("metadata.name: Required value: name or generateName is required"), r.body());
    }
}
