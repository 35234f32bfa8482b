package io.hotsched.shell;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.core.admin.ShadowView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** sched:shadow's text for an observe-only profile: listed with the shadows, in its own words. */
class ShadowTextTest {

    private static final String REASON = "observer refuses: RefusesN2: node n2 is kept for other pods";

    private static ShadowView observer() {
        return new ShadowView(
                "observe:observer",
                "default-scheduler",
                "observer",
                "observing",
                30,
                29,
                0,
                2,
                3,
                4,
                29 / 30.0,
                0,
                640,
                21,
                Map.of(REASON, 1L),
                null,
                List.of(new ShadowView.Disagreement(
                        "default/d-on-n2",
                        "observer",
                        "n2",
                        null,
                        List.of("n2: passes | refuses (RefusesN2: node n2 is kept for other pods)"),
                        List.of())));
    }

    @Test
    void theListShowsTheObserverWithItsFiguresAndNoServingDecisionTime() {
        String text = ShadowText.list(List.of(observer()));
        String row = text.lines()
                .filter(l -> l.startsWith("observe:observer "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(text));
        assertTrue(row.contains("default-scheduler"), row);
        assertTrue(row.contains("observing"), row);
        assertTrue(row.contains("96.67% (29)"), row);
        assertTrue(row.contains("2 cpu, 3 queue, 4 over the pending cap"), row);
        assertTrue(row.contains("- / 640"), row);
        assertTrue(text.contains("observe:observer observer: 1 pod(s): " + REASON), text);
    }

    @Test
    void itsDisagreementsNameTheBoundNodeAndTheObserversAndNeverAShadow() {
        String text = ShadowText.disagreements(List.of(observer()), "observe:observer");
        assertTrue(text.startsWith("observe:observer observer observing default-scheduler (observing): 1 of 30"), text);
        assertTrue(text.contains("BOUND NODE"), text);
        assertTrue(text.contains("OBSERVER NODE"), text);
        assertTrue(text.contains("default/d-on-n2"), text);
        assertTrue(text.contains("(none fits)"), text);
        assertFalse(text.toLowerCase(java.util.Locale.ROOT).contains("shadow"), text);
    }
}
