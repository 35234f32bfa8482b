package io.hotsched.plugins.defaults.defaultpreemption;

import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.hotsched.api.framework.LabelSelector;
import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Splits potential victims into those whose eviction would break a PodDisruptionBudget and the
 * rest, spending each budget's {@code status.disruptionsAllowed} in the order given.
 */
final class DisruptionBudgets {

    record Split(List<PodInfo> violating, List<PodInfo> nonViolating) {}

    private record Budget(String namespace, LabelSelector selector, Map<String, String> disruptedPods, int allowed) {}

    private final List<Budget> budgets;

    /** Reads the budgets once per preemption attempt; {@link #split} may then run on any thread. */
    DisruptionBudgets(List<PodDisruptionBudget> pdbs) {
        budgets = new ArrayList<>(pdbs.size());
        for (int i = 0; i < pdbs.size(); i++) {
            PodDisruptionBudget pdb = pdbs.get(i);
            String ns = pdb.getMetadata() == null || pdb.getMetadata().getNamespace() == null
                    ? "default"
                    : pdb.getMetadata().getNamespace();
            // a PDB without a selector, or with an empty one, protects nothing
            LabelSelector sel = pdb.getSpec() == null || pdb.getSpec().getSelector() == null
                    ? LabelSelector.NOTHING
                    : LabelSelector.of(pdb.getSpec().getSelector());
            if (sel.matchesEverything()) {
                sel = LabelSelector.NOTHING;
            }
            Map<String, String> disrupted =
                    pdb.getStatus() == null || pdb.getStatus().getDisruptedPods() == null
                            ? Map.of()
                            : pdb.getStatus().getDisruptedPods();
            int allowed = pdb.getStatus() == null || pdb.getStatus().getDisruptionsAllowed() == null
                    ? 0
                    : pdb.getStatus().getDisruptionsAllowed();
            budgets.add(new Budget(ns, sel, disrupted, allowed));
        }
    }

    /** Splits {@code pods}, keeping their order in both lists; each call spends the budgets afresh. */
    Split split(List<PodInfo> pods) {
        int[] allowed = new int[budgets.size()];
        for (int i = 0; i < allowed.length; i++) {
            allowed[i] = budgets.get(i).allowed();
        }
        List<PodInfo> violating = new ArrayList<>();
        List<PodInfo> nonViolating = new ArrayList<>();
        for (PodInfo p : pods) {
            boolean violates = false;
            Map<String, String> labels = p.labels();
            if (!labels.isEmpty()) {
                for (int i = 0; i < budgets.size(); i++) {
                    Budget b = budgets.get(i);
                    if (!b.namespace().equals(p.namespace()) || !b.selector().matches(labels)) {
                        continue;
                    }
                    // the API server has already counted a pod listed as disrupted
                    if (b.disruptedPods().containsKey(p.name())) {
                        continue;
                    }
                    allowed[i]--;
                    if (allowed[i] < 0) {
                        violates = true;
                    }
                }
            }
            (violates ? violating : nonViolating).add(p);
        }
        return new Split(violating, nonViolating);
    }
}
