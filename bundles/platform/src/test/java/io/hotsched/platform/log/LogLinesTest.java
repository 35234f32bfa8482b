package io.hotsched.platform.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleException;
import org.osgi.service.log.LogLevel;

class LogLinesTest {

    @Test
    void messageAndCauseChainOnOneLine() {
        BundleException e =
                new BundleException("Unable to resolve x [5]:\n missing requirement", new IOException("boom"));
        assertEquals(
                "Error while starting bundle: file:/d/x.jar: Unable to resolve x [5]: missing requirement: boom",
                LogLines.oneLine("Error while starting bundle: file:/d/x.jar", e));
    }

    @Test
    void repeatedMessagesAreNotDuplicated() {
        IOException inner = new IOException("zip END header not found");
        assertEquals(
                "Failed: zip END header not found",
                LogLines.oneLine("Failed", new IOException("zip END header not found", inner)));
    }

    @Test
    void noExceptionKeepsMessage() {
        assertEquals("Installing bundle a / 1.0.0", LogLines.oneLine("Installing bundle a / 1.0.0", null));
    }

    @Test
    void lifecycleRefusalsGetNoStackTraceButBugsDo() {
        assertFalse(LogLines.wantsStackTrace(new BundleException("unresolved")));
        assertFalse(LogLines.wantsStackTrace(null));
        assertTrue(LogLines.wantsStackTrace(new NullPointerException()));
        assertTrue(LogLines.wantsStackTrace(new BundleException("activator failed", new IllegalStateException())));
    }

    /** Felix's log service hands listeners its own wrapper instead of the original exception. */
    @Test
    void seesThroughTheLogServiceWrapper() throws Exception {
        Throwable wrapped = felixWrapper(new BundleException("Unable to resolve x"));
        assertEquals("org.apache.felix.log.LogException", wrapped.getClass().getName());
        assertEquals("org.osgi.framework.BundleException", LogLines.originalClassName(wrapped));
        assertEquals(
                "Error while starting bundle: file:/d/x.jar: Unable to resolve x",
                LogLines.oneLine("Error while starting bundle: file:/d/x.jar", wrapped));
        assertFalse(LogLines.wantsStackTrace(wrapped));
        assertTrue(LogLines.wantsStackTrace(
                felixWrapper(new BundleException("activator", new IllegalStateException("bug")))));
    }

    private static Throwable felixWrapper(Throwable original) throws Exception {
        Method wrap =
                Class.forName("org.apache.felix.log.LogException").getDeclaredMethod("getException", Throwable.class);
        wrap.setAccessible(true);
        return (Throwable) wrap.invoke(null, original);
    }

    @Test
    void frameworkEventsAreDebugUnlessTheyReportFailure() {
        assertEquals(LogLevel.DEBUG, LogLines.effectiveLevel("Events.Bundle", LogLevel.INFO));
        assertEquals(LogLevel.DEBUG, LogLines.effectiveLevel("Events.Service", LogLevel.DEBUG));
        assertEquals(LogLevel.ERROR, LogLines.effectiveLevel("Events.Framework", LogLevel.ERROR));
        assertEquals(LogLevel.WARN, LogLines.effectiveLevel("Events.Framework", LogLevel.WARN));
        assertEquals(LogLevel.INFO, LogLines.effectiveLevel("LogService", LogLevel.INFO));
    }
}
