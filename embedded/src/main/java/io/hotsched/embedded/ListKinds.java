package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;

/**
 * Lists typed as kube-apiserver types them ({@code PodList} of {@code v1}, {@code NodeList} ...):
 * the store calls every list {@code v1 List}, and client-go's typed clients (kubectl drain's pod
 * list among them) do not take a {@code List} for a {@code PodList}.
 */
final class ListKinds {

    private static final String STORE_PREFIX = "{\"apiVersion\":\"v1\",\"kind\":\"List\",";

    private ListKinds() {}

    /** {@code answer} to a GET of {@code path}, with its list kind named when the collection is a built-in one. */
    static MockResponse typed(MockResponse answer, String path) {
        return typed(answer, path, Discovery.GROUPS);
    }

    /** {@code answer} to a GET of {@code path}, with its list kind named when {@code groups} serve the collection. */
    static MockResponse typed(
            MockResponse answer, String path, java.util.Map<String, java.util.List<Discovery.Res>> groups) {
        if (answer == null
                || answer.code() != 200
                || answer.getBody() == null
                || answer.getBody().size() < STORE_PREFIX.length()) {
            return answer;
        }
        byte[] body = answer.getBody().getBytes();
        if (!startsWith(body, STORE_PREFIX)) {
            return answer;
        }
        String[] gvAndKind = kind(path, groups);
        if (gvAndKind == null) {
            return answer;
        }
        String head = "{\"apiVersion\":\"" + gvAndKind[0] + "\",\"kind\":\"" + gvAndKind[1] + "List\",";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[h.length + body.length - STORE_PREFIX.length()];
        System.arraycopy(h, 0, out, 0, h.length);
        System.arraycopy(body, STORE_PREFIX.length(), out, h.length, body.length - STORE_PREFIX.length());
        return answer.setBody(out);
    }

    /** The group-version and kind of the collection {@code path} lists, or null. */
    private static String[] kind(String path, java.util.Map<String, java.util.List<Discovery.Res>> groups) {
        Discovery.ApiPath api = Discovery.ApiPath.of(path);
        int segments = api == null ? 0 : api.rest().size();
        if (segments != 1 && segments != 3) {
            return null;
        }
        String kind = api.kindOf(api.rest().get(segments - 1), groups);
        return kind == null ? null : new String[] {api.groupVersion(), kind};
    }

    private static boolean startsWith(byte[] body, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (body[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
