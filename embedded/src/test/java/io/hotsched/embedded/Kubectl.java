package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The machine's real kubectl against one kubeconfig; fails (does not skip) when there is none. */
final class Kubectl {

    /** What one kubectl run printed, and how it ended. */
    record Run(int exit, String out) {
        Run ok() {
            assertEquals(0, exit, out);
            return this;
        }
    }

    private final Path kubeconfig;

    Kubectl(Path kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    Run run(String... args) throws IOException, InterruptedException {
        return withInput(null, args);
    }

    Run withInput(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(
                    "kubectl is needed on the PATH for this test (v1.32 is what the project checks with): "
                            + e.getMessage(),
                    e);
        }
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 60 s");
        }
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
