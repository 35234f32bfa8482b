package io.hotsched.core.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.QueueingHintFunction;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ext.NodeTransformer;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The core calls extension points only through the guarded call: every method of a plugin,
 * transformer or plugin extension interface is called from {@code PluginCalls} alone, so that each
 * call is timed out, recorded as a fault, counted and named the same way. The lifecycle methods
 * ({@code name}, {@code close}; the factory's {@code create} and {@code eventsToRegister}, which
 * the builder guards while it builds) are not extension points.
 *
 * <p>One named exception: a plugin's {@link QueueingHintFunction} is called by {@code
 * QueueingHints} alone, per pod and event under the queue's lock, where a time-out could free
 * nothing (as for PreEnqueue and QueueSort); that class catches what a hint throws, a {@link
 * LinkageError} included, and records it as a fault of the hint's plugin.
 */
class GuardedCallArchitectureTest {

    private static final String PLUGIN_CALLS = "io.hotsched.core.runtime.PluginCalls";
    private static final String QUEUEING_HINTS = "io.hotsched.core.queue.QueueingHints";
    private static final Set<String> LIFECYCLE = Set.of("name", "close");

    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.hotsched.core");
    }

    /** A method of an interface a plugin implements to serve a point, or of one of its extensions. */
    private static final DescribedPredicate<JavaAccess<?>> EXTENSION_POINT_CALL =
            DescribedPredicate.describe("an extension point method of a plugin, transformer or extension", access -> {
                JavaClass owner = access.getTargetOwner();
                boolean pointType = owner.isInterface()
                        && (owner.getPackageName().equals(Plugin.class.getPackageName())
                                        && owner.getSimpleName().endsWith("Plugin")
                                        && !owner.isEquivalentTo(Plugin.class)
                                || owner.isEquivalentTo(PreFilterExtensions.class)
                                || owner.isEquivalentTo(ScoreExtensions.class)
                                || owner.getPackageName().equals(NodeTransformer.class.getPackageName())
                                        && owner.getSimpleName().endsWith("Transformer"));
                return pointType && !LIFECYCLE.contains(access.getName());
            });

    /** A call of a plugin's queueing hint. */
    private static final DescribedPredicate<JavaAccess<?>> HINT_CALL = DescribedPredicate.describe(
            "a call of a plugin's queueing hint",
            access -> access.getTargetOwner().isEquivalentTo(QueueingHintFunction.class)
                    && access.getName().equals("hint"));

    private static final ArchRule HINTS_ONLY_FROM_QUEUEING_HINTS = noClasses()
            .that()
            .doNotHaveFullyQualifiedName(QUEUEING_HINTS)
            .should()
            .accessTargetWhere(HINT_CALL)
            .because("QueueingHints is where a hint's fault is caught and recorded");

    private static final ArchRule ONLY_THROUGH_THE_GUARDED_CALL = noClasses()
            .that()
            .doNotHaveFullyQualifiedName(PLUGIN_CALLS)
            .should()
            .accessTargetWhere(EXTENSION_POINT_CALL)
            .because("every plugin call goes through GuardedCall (time-out, fault, metrics, message in one place)");

    @Test
    void pluginAndTransformerMethodsAreCalledFromTheGuardedCallOnly() {
        ONLY_THROUGH_THE_GUARDED_CALL.check(core);
    }

    @Test
    void queueingHintsAreCalledFromQueueingHintsOnly() {
        HINTS_ONLY_FROM_QUEUEING_HINTS.check(core);
        // and the predicate matches the call that class makes, so the rule is not passed vacuously
        EvaluationResult r = noClasses().should().accessTargetWhere(HINT_CALL).evaluate(core);
        assertTrue(r.hasViolation());
        assertFalse(
                r.getFailureReport().getDetails().stream().anyMatch(d -> !d.contains(QUEUEING_HINTS)),
                "only QueueingHints calls them");
    }

    @Test
    void theRuleSeesTheCallsThatPluginCallsMakes() {
        // the rule would pass vacuously if the predicate matched nothing: PluginCalls itself breaks it
        EvaluationResult r =
                noClasses().should().accessTargetWhere(EXTENSION_POINT_CALL).evaluate(core);
        assertTrue(r.hasViolation());
        assertFalse(
                r.getFailureReport().getDetails().stream().anyMatch(d -> !d.contains(PLUGIN_CALLS)),
                "only PluginCalls calls them");
    }
}
