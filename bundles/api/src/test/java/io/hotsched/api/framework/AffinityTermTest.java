package io.hotsched.api.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AffinityTermTest {

    @Test
    void selectorsFollowUpstreamSemantics() {
        assertFalse(LabelSelector.of(null).matches(Map.of("a", "b")), "nil selects nothing");
        assertTrue(LabelSelector.of(new LabelSelectorBuilder().build()).matches(Map.of()), "empty selects everything");
        LabelSelector s = LabelSelector.of(new LabelSelectorBuilder()
                .withMatchLabels(Map.of("app", "web"))
                .addNewMatchExpression()
                .withKey("tier")
                .withOperator("NotIn")
                .withValues("db")
                .endMatchExpression()
                .addNewMatchExpression()
                .withKey("canary")
                .withOperator("DoesNotExist")
                .endMatchExpression()
                .build());
        assertTrue(s.matches(Map.of("app", "web")));
        assertTrue(s.matches(Map.of("app", "web", "tier", "fe")));
        assertFalse(s.matches(Map.of("app", "web", "tier", "db")));
        assertFalse(s.matches(Map.of("app", "web", "canary", "1")));
        assertFalse(s.matches(Map.of("app", "api")));
    }

    /** A pod a term is matched against: only its metadata counts. */
    private static PodInfo candidate(String name, String ns, Map<String, String> labels) {
        return PodInfo.of(new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withLabels(labels)
                .endMetadata()
                .build());
    }

    private static Pod pod(String ns, Map<String, String> labels) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace(ns)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNewAffinity()
                .withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("kubernetes.io/hostname")
                .withNewLabelSelector()
                .withMatchLabels(Map.of("app", "web"))
                .endLabelSelector()
                .withMatchLabelKeys("version")
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution()
                .withWeight(5)
                .withNewPodAffinityTerm()
                .withTopologyKey("zone")
                .withNewLabelSelector()
                .endLabelSelector()
                .withNewNamespaceSelector()
                .endNamespaceSelector()
                .endPodAffinityTerm()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity()
                .endAffinity()
                .endSpec()
                .build();
    }

    @Test
    void termsAreCompiledOnceWithNamespacesAndMatchLabelKeys() {
        PodInfo p = PodInfo.of(pod("team-a", Map.of("app", "web", "version", "v2")));
        assertTrue(p.hasAffinity());
        AffinityTerm required = p.requiredAntiAffinityTerms().get(0);
        assertEquals(Set.of("team-a"), required.namespaces(), "defaults to the owner's namespace");
        assertTrue(required.matches(candidate("x", "team-a", Map.of("app", "web", "version", "v2")), Map.of()));
        assertFalse(
                required.matches(candidate("x", "team-a", Map.of("app", "web", "version", "v1")), Map.of()),
                "matchLabelKeys: same version only");
        assertFalse(
                required.matches(candidate("x", "team-b", Map.of("app", "web", "version", "v2")), Map.of()),
                "other namespace");
        AffinityTerm preferred = p.preferredAntiAffinityTerms().get(0);
        assertEquals(5, preferred.weight());
        assertTrue(
                preferred.matches(candidate("y", "any", Map.of()), Map.of()),
                "an empty namespace selector means all namespaces");
    }

    @Test
    void nodeInfoTracksPodsWithAffinity() {
        NodeInfo n = NodeInfo.withoutNode("n1");
        PodInfo plain = PodInfo.of(new PodBuilder()
                .withNewMetadata()
                .withName("plain")
                .withUid("u0")
                .endMetadata()
                .build());
        PodInfo anti = PodInfo.of(pod("ns", Map.of("app", "web")));
        n.addPod(plain);
        n.addPod(anti);
        assertEquals(List.of(anti), n.podsWithAffinity());
        assertEquals(List.of(anti), n.podsWithRequiredAntiAffinity());
        n.removePod(anti.uid());
        assertTrue(n.podsWithAffinity().isEmpty());
    }
}
